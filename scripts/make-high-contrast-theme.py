#!/usr/bin/python3
"""Draws the "high-contrast" theme's images with Cairo: a black track edged in white and a
white thumb with a black arrow, at 1x and @2x, into resources/themes/high-contrast
(slidegate --theme high-contrast). Every text and glyph is at 7:1 or more against what
lies under it (WCAG AAA): white on black, black on white; theme.conf keeps the label
bright between the shimmer's sweeps.

Usage: scripts/make-high-contrast-theme.py   (needs python3-cairo: apt-get install python3-cairo)
"""

import math
import os

import cairo

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "resources", "themes", "high-contrast")
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
    rounded(cr, 1.5, 1.5, TRACK - 3, TRACK - 3, 13)
    cr.set_source_rgb(0, 0, 0)
    cr.fill_preserve()
    cr.set_source_rgb(1, 1, 1)
    cr.set_line_width(3)
    cr.stroke()
    surface.write_to_png(os.path.join(OUT, "track.png" if scale == 1 else "track@2x.png"))


def thumb(scale, busy=False):
    size = THUMB * scale
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
    cr = cairo.Context(surface)
    cr.scale(scale, scale)
    rounded(cr, 3, 3, THUMB - 6, THUMB - 6, 11)
    cr.set_source_rgb(1, 1, 1)
    cr.fill()
    cr.set_source_rgb(0, 0, 0)
    if busy:
        for i in (-1, 0, 1):
            cr.arc(THUMB / 2 + i * 13, THUMB / 2, 4.5, 0, 2 * math.pi)
            cr.fill()
    else:
        cr.set_line_width(6)
        cr.set_line_cap(cairo.LINE_CAP_ROUND)
        cr.set_line_join(cairo.LINE_JOIN_ROUND)
        cr.move_to(19, THUMB / 2)
        cr.line_to(45, THUMB / 2)
        cr.move_to(34, THUMB / 2 - 12)
        cr.line_to(46, THUMB / 2)
        cr.line_to(34, THUMB / 2 + 12)
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
        f.write("# The high-contrast theme, drawn by scripts/make-high-contrast-theme.py.\n")
        f.write("track-caps=16,16,16,16\nthumb-caps=14,14,14,14\nforeground=#ffffff\nbackground=#000000\nlabel-dim=0.8\nglyph=#000000\nlabel-font=Sans Bold\n")
