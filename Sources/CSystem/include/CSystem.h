#ifndef SLIDEGATE_CSYSTEM_H
#define SLIDEGATE_CSYSTEM_H

#include <libintl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

/* What Swift cannot import from the C library: calls that need _GNU_SOURCE, which Swift's
   Glibc module does not define, and the process's own set-up. No X here. */

/* ppoll with the timeout in seconds (negative: no limit); ppoll needs _GNU_SOURCE, which
   Swift's Glibc module does not define. Returns ppoll's result (-1 with errno). */
int sg_ppoll(struct pollfd *fds, unsigned long count, double timeout);

/* pipe2 with O_CLOEXEC (pipe2 needs _GNU_SOURCE). */
int sg_pipe_cloexec(int fds[2]);

/* posix_spawn_file_actions_addclosefrom_np (glibc 2.34; it needs _GNU_SOURCE): the child
   closes every descriptor from `from` up before it executes. */
int sg_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/* Gives pages no longer needed back to the kernel: malloc_trim(0), then MADV_DONTNEED on
   every read-only, file-backed private mapping that has no copied pages (from
   /proc/self/smaps), and, in the other private file mappings (writable data, RELRO), on
   each page that is still the file's own (/proc/self/pagemap: present and file-backed).
   Copied pages (written data, relocations) stay, since dropping them would lose them;
   dropped pages stay in the page cache and come back without I/O if used again. Returns
   the number of mappings it dropped pages of. */
int sg_shed_startup_pages(void);

/* One malloc arena for the whole process (mallopt M_ARENA_MAX 1): a helper thread's
   arena (Pango's fontconfig start-up) would otherwise keep its pages for good. */
void sg_single_malloc_arena(void);

/* open(path, O_PATH | O_CLOEXEC): O_PATH needs _GNU_SOURCE. -1 with errno. */
int sg_open_path(const char *path);

/* For a process that holds a secret: not dumpable (no core file, no ptrace by the same user)
   and a core size limit of 0. Returns 0, or the errno of the call that failed. */
int sg_forbid_core_dumps(void);

/* Closes every descriptor from 3 up but those in `keep` (sorted, ascending): what a forked
   child was not given. */
void sg_close_others(const int *keep, int count);

/* The name ps and /proc/PID/comm show (PR_SET_NAME): the supervisor's forked guard. */
int sg_name_process(const char *name);

/* For a helper: SIGKILL when the process that started it ends (PR_SET_PDEATHSIG), so a helper
   blocked in PAM does not outlive its guard. Returns 0, or errno. */
int sg_die_with_parent(void);

/* Installed setgid (to a group of its own, so that the kernel starts it non-dumpable and
   no process of the same user can read or trace it before it protects itself), the
   authentication helper gives the group up at once: the effective and saved group become the
   real one. 0, or -1 with errno. */
int sg_drop_group(void);
/* The pid of the process tracing this one (0: none), from /proc/self/status; -1 when it
   cannot be read. */
int sg_tracer_pid(void);

/* A signalfd for the signals in the set, non-blocking and close-on-exec; -1 with errno. */
int sg_signalfd(const sigset_t *set);
/* Reads one signal from a signalfd: the signal number, or 0 when none is pending. */
int sg_read_signal(int fd);

#endif
