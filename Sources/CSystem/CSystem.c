// The signal handler and its state in C: C11 atomics of static storage are async-signal-safe to touch, with no lazy
// initialisation (Swift globals are initialised on first use, which a handler must not trigger), and the handler
// can be installed before any library initialiser runs (.preinit_array). Design: StopRequest.swift.
#define _GNU_SOURCE
#include "CSystem.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static atomic_int stop_signal = 0;
static atomic_int scopes = 0;
static atomic_int hurry_fd = -1;
static atomic_int hurrying = 0;
static atomic_int message_claimed = 0;   // 0, or the exit status of the line printed (or being printed)
static atomic_int message_printed = 0;   // 1 once the claimed line is written

const char *habitat_signal_line(int signal) {
    switch (signal) {
    case SIGINT: return "habitat: interrupted by SIGINT";
    case SIGTERM: return "habitat: interrupted by SIGTERM";
    case SIGHUP: return "habitat: interrupted by SIGHUP";
    default: return "habitat: interrupted by a signal";
    }
}

/// Waits (up to half a second, in 1 ms naps: nanosleep is async-signal-safe) until the claimed line is written,
/// then ends the process with its status.
__attribute__((noreturn)) static void exit_after_claimed_line(void) {
    struct timespec nap = {0, 1000000};
    for (int i = 0; i < 500 && atomic_load(&message_printed) == 0; i++) nanosleep(&nap, NULL);
    _exit(atomic_load(&message_claimed));
}

/// Prints the signal's line and ends the process with 128 + the signal; when another line was claimed first, ends
/// it silently with that line's status once that line is written, so that the line and the status agree.
static void exit_now(int signal) {
    int none = 0;
    if (!atomic_compare_exchange_strong(&message_claimed, &none, 128 + signal)) exit_after_claimed_line();
    const char *line = habitat_signal_line(signal);
    ssize_t ignored = write(2, line, strlen(line));
    ignored = write(2, "\n", 1);
    (void)ignored;
    _exit(128 + signal);
}

/// Only async-signal-safe work: atomics, write, _exit.
static void handle(int signal) {
    int saved = errno;
    if (atomic_load(&scopes) == 0) exit_now(signal);
    int none = 0;
    if (atomic_compare_exchange_strong(&stop_signal, &none, signal)) { errno = saved; return; }   // the first: stop at the next checkpoint
    // A second signal inside a scope: the cleanup thread removes what this process staged, then exits; a third,
    // or a second with no cleanup thread, ends the process at once.
    int fd = atomic_load(&hurry_fd);
    if (fd >= 0 && atomic_exchange(&hurrying, 1) == 0) {
        unsigned char byte = (unsigned char)signal;
        if (write(fd, &byte, 1) == 1) { errno = saved; return; }
    }
    exit_now(signal);
}

void habitat_signals_install(void) {
    sigset_t set;
    sigemptyset(&set);
    int handled[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = handle;
        sigemptyset(&action.sa_mask);
        for (int j = 0; j < 3; j++) sigaddset(&action.sa_mask, handled[j]);   // one handler at a time
        action.sa_flags = SA_RESTART;   // a read or write in progress goes on; work stops at the next checkpoint
        sigaction(handled[i], &action, NULL);
        sigaddset(&set, handled[i]);
    }
    // Overrides an inherited blocked mask (children of multi-threaded parents); sigaction above overrides an
    // inherited "ignore" (background jobs of a shell).
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/// Runs before any shared library's initialiser (the Swift runtime's, Foundation's): only the dynamic loader's own
/// work comes before it.
static void install_early(int argc, char **argv, char **envp) { (void)argc; (void)argv; (void)envp; habitat_signals_install(); }
__attribute__((section(".preinit_array"), used)) static void (*const habitat_preinit)(int, char **, char **) = install_early;

int habitat_stop_signal(void) { return atomic_load_explicit(&stop_signal, memory_order_relaxed); }
void habitat_stop_set(int signal) {
    atomic_store(&stop_signal, signal);
    if (signal == 0) atomic_store(&hurrying, 0);
}
void habitat_scope_enter(void) { atomic_fetch_add(&scopes, 1); }
void habitat_scope_leave(void) { atomic_fetch_sub(&scopes, 1); }
int habitat_scope_count(void) { return atomic_load(&scopes); }
void habitat_set_hurry_fd(int fd) { atomic_store(&hurry_fd, fd); }
int habitat_claim_message(int status) {
    // The claimer's own thread takes no more of these signals: a handler interrupting it between the claim and
    // the line would wait for a line that cannot come. Other threads take them (and wait for the line).
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    int none = 0;
    if (atomic_compare_exchange_strong(&message_claimed, &none, status == 0 ? 1 : status)) return 0;
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    return none;
}
void habitat_message_written(void) { atomic_store(&message_printed, 1); }
void habitat_await_claimed_line(void) { exit_after_claimed_line(); }

long habitat_inode_flags(const char *path) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return -1;
    int flags = 0;
    int rc = ioctl(fd, FS_IOC_GETFLAGS, &flags);
    close(fd);
    return rc == 0 ? (long)(unsigned int)flags : -1;
}
