#include <gdk-pixbuf/gdk-pixbuf.h>
