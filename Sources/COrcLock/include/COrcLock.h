#ifndef TESSERA_CORCLOCK_H
#define TESSERA_CORCLOCK_H

/* See orc_lock.c. */

/* 1 when libvips' calls to orc_program_free come to this module's lock, else 0 (then the caller turns
   libvips' orc code off). */
int tessera_orc_lock_in_effect(void);

/* How many orc programs were freed through the lock: tests use it to see that libvips' frees pass here. */
long tessera_orc_locked_frees(void);

#endif
