#ifndef TESSERA_CVIPS_SHIM_H
#define TESSERA_CVIPS_SHIM_H

#include <vips/vips.h>

/* Swift cannot call C-variadic functions or macros: each libvips call Tessera needs is wrapped here
   in a fixed-argument function. */

/* VIPS_INIT is a macro. Returns 0 on success. */
static inline int tessera_vips_init(const char *program) {
    return VIPS_INIT(program);
}

#endif
