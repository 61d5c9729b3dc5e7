#!/usr/bin/python3
"""Draws the "classic" theme's images with Cairo: a dark glass track and a glossy silver
thumb with an arrow, at 1x and @2x, into resources/themes/classic (slidegate --theme).

Usage: scripts/make-classic-theme.py   (needs python3-cairo: apt-get install python3-cairo)

Change the colours or shapes below and run it again; theme.conf's caps say how much of
each edge stays unstretched (in 1x pixels), so keep them in step with the radii here.
"""

import math
import os

import cairo

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "resources", "themes", "classic")
TRACK = 40  # the track image is TRACK x TRACK, caps 16 on every side
THUMB = 64  # the thumb image is THUMB x THUMB, caps 14 on every side


def rounded(cr, x, y, w, h, r):
    cr.new_sub_path()
    cr.arc(x + w - r, y + r, r, -math.pi / 2, 0)
    cr.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
    cr.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
    cr.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
    cr.close_path()


def track(scale):
    size = TRACK * scale
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
    cr = cairo.Context(surface)
    cr.scale(scale, scale)
    # Dark glass: a vertical gradient, an inner shadow at the top, a faint light edge below.
    rounded(cr, 0.5, 0.5, TRACK - 1, TRACK - 1, 14)
    fill = cairo.LinearGradient(0, 0, 0, TRACK)
    fill.add_color_stop_rgb(0, 0.05, 0.06, 0.08)
    fill.add_color_stop_rgb(1, 0.16, 0.17, 0.20)
    cr.set_source(fill)
    cr.fill_preserve()
    cr.set_line_width(1)
    edge = cairo.LinearGradient(0, 0, 0, TRACK)
    edge.add_color_stop_rgba(0, 0, 0, 0, 0.9)
    edge.add_color_stop_rgba(1, 1, 1, 1, 0.25)
    cr.set_source(edge)
    cr.stroke()
    surface.write_to_png(os.path.join(OUT, "track.png" if scale == 1 else "track@2x.png"))


def thumb(scale, busy=False):
    size = THUMB * scale
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
    cr = cairo.Context(surface)
    cr.scale(scale, scale)
    # Brushed silver with a gloss over its upper half.
    rounded(cr, 1, 1, THUMB - 2, THUMB - 2, 12)
    metal = cairo.LinearGradient(0, 0, 0, THUMB)
    metal.add_color_stop_rgb(0, 0.93, 0.94, 0.96)
    metal.add_color_stop_rgb(0.5, 0.74, 0.76, 0.80)
    metal.add_color_stop_rgb(1, 0.56, 0.58, 0.63)
    cr.set_source(metal)
    cr.fill_preserve()
    cr.set_source_rgba(0, 0, 0, 0.35)
    cr.set_line_width(1)
    cr.stroke()
    rounded(cr, 3, 3, THUMB - 6, THUMB / 2 - 3, 10)
    gloss = cairo.LinearGradient(0, 3, 0, THUMB / 2)
    gloss.add_color_stop_rgba(0, 1, 1, 1, 0.75)
    gloss.add_color_stop_rgba(1, 1, 1, 1, 0.1)
    cr.set_source(gloss)
    cr.fill()
    cr.set_source_rgb(0.30, 0.32, 0.36)
    if busy:
        for i in (-1, 0, 1):
            cr.arc(THUMB / 2 + i * 12, THUMB / 2, 3.5, 0, 2 * math.pi)
            cr.fill()
    else:
        cr.set_line_width(5)
        cr.set_line_cap(cairo.LINE_CAP_ROUND)
        cr.set_line_join(cairo.LINE_JOIN_ROUND)
        cr.move_to(20, THUMB / 2)
        cr.line_to(44, THUMB / 2)
        cr.move_to(34, THUMB / 2 - 11)
        cr.line_to(45, THUMB / 2)
        cr.line_to(34, THUMB / 2 + 11)
        cr.stroke()
    name = ("thumb-busy" if busy else "thumb") + ("" if scale == 1 else "@2x") + ".png"
    surface.write_to_png(os.path.join(OUT, name))


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for s in (1, 2):
        track(s)
        thumb(s)
        thumb(s, busy=True)
    with open(os.path.join(OUT, "theme.conf"), "w") as f:
        f.write("# The classic theme, drawn by scripts/make-classic-theme.py.\n")
        f.write("track-caps=16,16,16,16\nthumb-caps=14,14,14,14\nforeground=#f2f4f8\nlabel-font=Sans\n")
