#include <cairo.h>
#include <cairo-xlib.h>
#include <cairo-ft.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <pixman.h>
