// CSystem: the few things Habitat does that must be C (Sources/CSystem/README.md).
#ifndef HABITAT_CSYSTEM_H
#define HABITAT_CSYSTEM_H

// ---- Signals (SIGINT, SIGTERM, SIGHUP): the process-wide stop state and its handler (StopRequest in Simulation).

/// Installs the handler for SIGINT, SIGTERM and SIGHUP and unblocks them. Also run before any library's
/// initialiser (the executable's .preinit_array), so a signal in the first milliseconds is handled too.
void habitat_signals_install(void);
/// The signal that asked for a stop (0: none).
int habitat_stop_signal(void);
/// Asks for a stop as `signal` would (tests, or a caller that stops the run itself); 0 clears the request.
void habitat_stop_set(int signal);
/// Enters / leaves a clean-stop scope (a run or a report being written): inside one, a first signal only asks
/// for a stop; outside, a signal ends the process at once with its message.
void habitat_scope_enter(void);
void habitat_scope_leave(void);
/// Clean-stop scopes in progress.
int habitat_scope_count(void);
/// Where a second signal inside a scope is handed on (one byte, the signal number): the write end of the pipe a
/// cleanup thread reads. -1: none (a second signal then ends the process at once).
void habitat_set_hurry_fd(int fd);
/// Claims the process's one error line, to be followed by an exit with `status`: 0 for the first caller (it prints
/// and exits with `status`); for a later caller, the status the first claimed (it must print nothing and end the
/// process with that status, or let the first end it), so that the line and the exit status agree.
/// The first caller's thread no longer takes SIGINT, SIGTERM or SIGHUP (other threads do, and wait for its line);
/// it must write its line, call `habitat_message_written()` and exit.
int habitat_claim_message(int status);
/// Tells the others that the claimed line is written.
void habitat_message_written(void);
/// For a later caller: waits (at most half a second) for the claimed line to be written, then ends the process with
/// the claimed status. Never returns.
void habitat_await_claimed_line(void) __attribute__((noreturn));
/// The line for `signal` ("habitat: interrupted by SIGINT"), without a newline.
const char *habitat_signal_line(int signal);

// ---- Files.

/// The inode flags of `path` (FS_IOC_GETFLAGS: FS_IMMUTABLE_FL 0x10, FS_APPEND_FL 0x20), not following a final
/// symbolic link; -1 where they cannot be read (no such file, a file system without flags).
long habitat_inode_flags(const char *path);

#endif
