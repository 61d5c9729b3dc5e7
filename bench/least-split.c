/* The least a lock split as slidegate's is can cost to show its first frame with a label:
 * a static program with Xlib alone (as slidegate's guard is) covers the screen and takes
 * both grabs, then starts bench/least-cold.c --into its cover, which links Pango and
 * Cairo, draws the slider with its label and copies it in. The lock holds the screen
 * before any font code runs, and the code that draws never holds the grabs: the split's
 * price is a second program's start.
 *
 * Usage: least-split LEAST-COLD (DISPLAY from the environment). Runs until killed. Built
 * by bench/run with cc -O2 -static ... -lX11 -lxcb -lXau -lXdmcp -lbsd -lmd. */
#include "least.h"
#include <spawn.h>
#include <stdio.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv) {
    Display *d = XOpenDisplay(NULL);
    if (argc != 2 || !d) {
        fputs(argc != 2 ? "usage: least-split LEAST-COLD\n" : "least-split: cannot open the display\n", stderr);
        return 1;
    }
    Window w = cover_and_grab(d, 0x15171c, ButtonPressMask | ButtonReleaseMask | PointerMotionMask);
    char window[32];
    snprintf(window, sizeof window, "0x%lx", (unsigned long)w);
    char *child[] = {argv[1], "--into", window, NULL};
    pid_t pid;
    if (posix_spawn(&pid, argv[1], NULL, NULL, child, environ) != 0) {
        fputs("least-split: cannot start the drawing program\n", stderr);
        return 1;
    }
    for (;;)
        pause();
}
