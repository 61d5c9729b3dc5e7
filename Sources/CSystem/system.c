#define _GNU_SOURCE
#include "CSystem.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <math.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int sg_ppoll(struct pollfd *fds, unsigned long count, double timeout) {
    struct timespec limit;
    struct timespec *limit_pointer = NULL;
    if (timeout >= 0) {
        double whole = floor(timeout);
        limit.tv_sec = (time_t)whole;
        limit.tv_nsec = (long)((timeout - whole) * 1e9);
        limit_pointer = &limit;
    }
    return ppoll(fds, (nfds_t)count, limit_pointer, NULL);
}

int sg_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int sg_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int sg_forbid_core_dumps(void) {
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return errno;
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_CORE, &none) != 0) return errno;
    return 0;
}

void sg_close_others(const int *keep, int count) {
    unsigned int from = 3;
    for (int i = 0; i < count; i++) {
        if (keep[i] < 3) continue;
        if ((unsigned int)keep[i] > from) (void)close_range(from, (unsigned int)keep[i] - 1, 0);
        if ((unsigned int)keep[i] + 1 > from) from = (unsigned int)keep[i] + 1;
    }
    (void)close_range(from, ~0U, 0);
}

int sg_name_process(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0) == 0 ? 0 : errno; }

int sg_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == 0 ? 0 : errno; }

int sg_open_path(const char *path) { return open(path, O_PATH | O_CLOEXEC); }

int sg_signalfd(const sigset_t *set) { return signalfd(-1, set, SFD_NONBLOCK | SFD_CLOEXEC); }

int sg_read_signal(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    return n == (ssize_t)sizeof info ? (int)info.ssi_signo : 0;
}

/* Whether an smaps line starts a mapping ("lo-hi perms offset dev inode path") rather than
   giving one of its fields ("Name:   value kB"). */
static int starts_mapping(const char *line) {
    const char *dash = strchr(line, '-');
    const char *space = strchr(line, ' ');
    return dash && space && dash < space;
}

/* Drops, page by page, the pages of a private file mapping [start, end) that are still the
   file's own (never written, so not copied): /proc/self/pagemap marks them present and
   file-backed. Returns how many it dropped. */
static unsigned long drop_clean_file_pages(int pagemap, unsigned long start, unsigned long end) {
    const unsigned long page = (unsigned long)sysconf(_SC_PAGESIZE);
    unsigned long dropped = 0, run = 0, address;
    uint64_t entries[512];
    for (address = start; address < end;) {
        unsigned long count = (end - address) / page;
        if (count > 512) count = 512;
        ssize_t got = pread(pagemap, entries, count * sizeof entries[0], (off_t)(address / page * sizeof entries[0]));
        if (got <= 0) break;
        count = (unsigned long)got / sizeof entries[0];
        for (unsigned long i = 0; i < count; i++, address += page) {
            int clean = (entries[i] >> 63 & 1) && (entries[i] >> 61 & 1);
            if (clean) {
                if (run == 0) run = address;
                continue;
            }
            if (run && madvise((void *)run, address - run, MADV_DONTNEED) == 0) dropped += (address - run) / page;
            run = 0;
        }
    }
    if (run && madvise((void *)run, address - run, MADV_DONTNEED) == 0) dropped += (address - run) / page;
    return dropped;
}

void sg_single_malloc_arena(void) { mallopt(M_ARENA_MAX, 1); }

int sg_shed_startup_pages(void) {
    malloc_trim(0);
    FILE *smaps = fopen("/proc/self/smaps", "re");
    if (!smaps) return 0;
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    char line[512];
    unsigned long start = 0, end = 0;
    int candidate = 0, writable = 0, dropped = 0;
    /* Mappings never written are dropped whole, but last: code this function runs after
       dropping them (reading smaps, pread) would be mapped again and stay. */
    struct { unsigned long start, end; } unwritten[256];
    int unwrittenCount = 0;
    while (fgets(line, sizeof line, smaps)) {
        if (starts_mapping(line)) {
            char *cursor;
            start = strtoul(line, &cursor, 16);
            end = strtoul(cursor + 1, &cursor, 16);
            const char *perms = cursor + 1;
            /* Skip perms, offset and device; the inode is then the fourth field. */
            strtoul(perms + 5, &cursor, 16);
            while (*cursor == ' ') cursor++;
            while (*cursor && *cursor != ' ') cursor++;
            unsigned long inode = strtoul(cursor, &cursor, 10);
            while (*cursor == ' ') cursor++;
            writable = perms[1] == 'w';
            /* Shared writable mappings are left alone: their pages are not ours to drop. */
            candidate = inode != 0 && *cursor == '/' && !(writable && perms[3] == 's');
        } else if (candidate && strncmp(line, "Anonymous:", 10) == 0) {
            if (!writable && strtoul(line + 10, NULL, 10) == 0) {
                if (unwrittenCount < (int)(sizeof unwritten / sizeof unwritten[0])) {
                    unwritten[unwrittenCount].start = start;
                    unwritten[unwrittenCount].end = end;
                    unwrittenCount++;
                }
            } else if (pagemap >= 0 && drop_clean_file_pages(pagemap, start, end) > 0) {
                /* Written data and relocations were copied and stay; the rest goes. */
                dropped++;
            }
            candidate = 0;
        }
    }
    if (pagemap >= 0) close(pagemap);
    fclose(smaps);
    for (int i = 0; i < unwrittenCount; i++) {
        if (madvise((void *)unwritten[i].start, unwritten[i].end - unwritten[i].start, MADV_DONTNEED) == 0) dropped++;
    }
    return dropped;
}

/* The Swift runtime finds argv on Linux by walking back from `environ` to the start of the
   initial stack, which it finds in /proc/self/maps, before main. Both go wrong or cost: a
   library loaded before the program whose constructor calls setenv (as pam_wrapper's does)
   has moved `environ` to the heap by then, and the walk finds nothing (CommandLine.arguments
   would be empty); and reading the maps takes a quarter of a millisecond of the drawing
   program's start, whose map lists some 250 mappings. glibc hands every initialiser argc and
   argv, so this one keeps them for CommandLine:
   - linked statically, the standard library asks for them through
     _swift_stdlib_getUnsafeArgvArgc, defined here, so the runtime's own definition and the
     initialiser that reads the maps stay out of the link (nothing else here names them: the
     override below is a weak reference, which does not pull it in);
   - linked dynamically, the runtime calls its own, which reads its override (a stable entry
     point of the standard library) first.

   The program started through /proc/self/fd/N (how the guard runs its helpers) is named
   "N" in ps, top and pidof: it takes its name from argv[0] instead. */
extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) __attribute__((weak));

static int kept_argc;
static char **kept_argv;

static void sg_take_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 1 || argv == NULL || argv[0] == NULL) return;
    kept_argc = argc;
    kept_argv = argv;
    if (_swift_stdlib_overrideUnsafeArgvArgc) _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
    const char *slash = strrchr(argv[0], '/');
    /* Only the name ps shows: if the kernel refuses, the name stays "N", which is harmless. */
    (void)prctl(PR_SET_NAME, slash ? slash + 1 : argv[0], 0, 0, 0);
}

__attribute__((section(".init_array"), used)) static void (*const sg_take_arguments_entry)(int, char **, char **) =
    sg_take_arguments;

__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *count) {
    static char *none[] = {NULL};
    if (kept_argv == NULL) {
        *count = 0;
        return none;
    }
    *count = kept_argc;
    return kept_argv;
}

int sg_drop_group(void) {
    gid_t real = getgid();
    if (getegid() == real) return 0;
    return setresgid(real, real, real);
}

int sg_tracer_pid(void) {
    FILE *status = fopen("/proc/self/status", "re");
    if (status == NULL) return -1;
    char line[256];
    int tracer = -1;
    while (fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, "TracerPid:", 10) == 0) {
            tracer = atoi(line + 10);
            break;
        }
    }
    fclose(status);
    return tracer;
}
