/* liborc 0.4.33 (Debian 12's) allocates code memory for a compiled program under its global mutex but frees
   it without (orc_code_free -> orc_code_chunk_free merges neighbouring chunks of a shared list), so two
   libvips pipelines finishing while a third is built can corrupt the list and crash the process: seen in the
   library indexer, four threads each making a small thumbnail per photo. libvips 8.14 compiles and frees its
   orc programs (reduce, convolution) once per operation, so every thumbnail takes part.

   This file defines orc_program_free, the only way libvips frees orc code. The executable's definition comes
   first in the dynamic linker's search, so libvips' calls land here and run the real function, found with
   RTLD_NEXT, under the same mutex that allocation takes. If the definition is not the one libvips would find
   (not exported, or liborc absent), tessera_orc_lock_in_effect says so and libvips' vector code is turned
   off instead: slower thumbnails (about 40% here), never a crash. */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>

#include "COrcLock.h"

typedef void (*program_free_function)(void *program);
typedef void (*mutex_function)(void);

static program_free_function real_program_free;
static mutex_function global_lock;
static mutex_function global_unlock;
static pthread_once_t resolved = PTHREAD_ONCE_INIT;
static atomic_long locked_frees;

static void resolve(void) {
    real_program_free = (program_free_function)dlsym(RTLD_NEXT, "orc_program_free");
    global_lock = (mutex_function)dlsym(RTLD_DEFAULT, "orc_global_mutex_lock");
    global_unlock = (mutex_function)dlsym(RTLD_DEFAULT, "orc_global_mutex_unlock");
}

void orc_program_free(void *program);

void orc_program_free(void *program) {
    pthread_once(&resolved, resolve);
    if (!real_program_free) return; /* no liborc: nobody could have made the program */
    if (global_lock && global_unlock) {
        global_lock();
        real_program_free(program);
        global_unlock();
        atomic_fetch_add(&locked_frees, 1);
    } else {
        real_program_free(program);
    }
}

int tessera_orc_lock_in_effect(void) {
    pthread_once(&resolved, resolve);
    return real_program_free && global_lock && global_unlock
        && dlsym(RTLD_DEFAULT, "orc_program_free") == (void *)orc_program_free;
}

long tessera_orc_locked_frees(void) {
    return atomic_load(&locked_frees);
}
