#ifndef TESSERA_CVIPS_SHIM_H
#define TESSERA_CVIPS_SHIM_H

#include <vips/vips.h>
#include <vips/vector.h>

/* Swift cannot call C-variadic functions or macros: each libvips call Tessera needs is wrapped here
   in a fixed-argument function. Every function returns 0 on success and -1 on failure, with the
   reason in vips_error_buffer(), unless it says otherwise. */

/* VIPS_INIT is a macro. */
static inline int tessera_vips_init(const char *program) {
    return VIPS_INIT(program);
}

/* Loader options for every read: a truncated file is an error, not an image with a grey bottom. */
#define TESSERA_LOAD_OPTIONS "fail_on=truncated"

/* MARK: - Reading */

/* Header only: libvips opens images lazily, pixels are decoded when something asks for them.
   `loader` is the one the magic numbers named (Vips.loader: 0 JPEG, 1 PNG, 2 GIF, 3 WebP, 4 HEIF/AVIF), called
   directly: vips_image_new_from_buffer asks every loader in turn whether the bytes are theirs first, which
   was over half of a small image's header time. Any other value: the loader libvips finds. */
static inline VipsImage *tessera_image_new_from_buffer(const void *buf, size_t len, int loader) {
    VipsImage *out = NULL;
    int failed;
    switch (loader) {
    case 0: failed = vips_jpegload_buffer((void *)buf, len, &out, NULL); break;
    case 1: failed = vips_pngload_buffer((void *)buf, len, &out, NULL); break;
    case 2: failed = vips_gifload_buffer((void *)buf, len, &out, NULL); break;
    case 3: failed = vips_webpload_buffer((void *)buf, len, &out, NULL); break;
    case 4: failed = vips_heifload_buffer((void *)buf, len, &out, NULL); break;
    default: return vips_image_new_from_buffer(buf, len, "", NULL);
    }
    return failed ? NULL : out;
}

static inline VipsImage *tessera_image_new_from_source(VipsSource *source) {
    return vips_image_new_from_source(source, "", NULL);
}

/* MARK: - Thumbnails */

/* Shrink-on-load into a box of side×side, never upscaling, EXIF orientation applied. CMYK is converted to
   sRGB through its profile (or libvips' fallback CMYK profile). With `to_srgb`, an embedded ICC profile is
   used to convert to sRGB too: that costs a colour transform per pixel, so it is asked for only when the
   profile is not already sRGB. */
static inline int tessera_thumbnail_buffer(const void *buf, size_t len, VipsImage **out, int side, int to_srgb) {
    if (to_srgb)
        return vips_thumbnail_buffer((void *)buf, len, out, side, "height", side, "size", VIPS_SIZE_DOWN,
            "no_rotate", FALSE, "export_profile", "srgb", "option_string", TESSERA_LOAD_OPTIONS, NULL);
    return vips_thumbnail_buffer((void *)buf, len, out, side, "height", side, "size", VIPS_SIZE_DOWN,
        "no_rotate", FALSE, "option_string", TESSERA_LOAD_OPTIONS, NULL);
}

static inline int tessera_thumbnail_source(VipsSource *source, VipsImage **out, int side, int to_srgb) {
    if (to_srgb)
        return vips_thumbnail_source(source, out, side, "height", side, "size", VIPS_SIZE_DOWN,
            "no_rotate", FALSE, "export_profile", "srgb", "option_string", TESSERA_LOAD_OPTIONS, NULL);
    return vips_thumbnail_source(source, out, side, "height", side, "size", VIPS_SIZE_DOWN,
        "no_rotate", FALSE, "option_string", TESSERA_LOAD_OPTIONS, NULL);
}

/* MARK: - Colour palette */

/* The pixels of a side×side thumbnail (shrink-on-load, EXIF orientation ignored: colours do not turn) as
   8-bit sRGB, with the alpha band if the image has one: 3 or 4 bands, width×height×bands bytes in `*buf`, to be
   freed with g_free. Grey becomes three equal bands; 16-bit images are scaled to 8 bits. */
static inline int tessera_palette_pixels(VipsSource *source, int side, void **buf, size_t *len, int *width,
    int *height, int *bands) {
    VipsImage *thumb = NULL, *srgb = NULL, *cast = NULL;
    int result = -1;
    if (vips_thumbnail_source(source, &thumb, side, "height", side, "size", VIPS_SIZE_DOWN, "no_rotate", TRUE,
            "option_string", TESSERA_LOAD_OPTIONS, NULL)) goto done;
    if (vips_colourspace(thumb, &srgb, VIPS_INTERPRETATION_sRGB, NULL)) goto done;
    if (vips_cast(srgb, &cast, VIPS_FORMAT_UCHAR, NULL)) goto done;
    if (cast->Bands != 3 && cast->Bands != 4) {
        vips_error("tessera", "%d bands after conversion to sRGB", cast->Bands);
        goto done;
    }
    if (!(*buf = vips_image_write_to_memory(cast, len))) goto done;
    *width = cast->Xsize;
    *height = cast->Ysize;
    *bands = cast->Bands;
    result = 0;
done:
    VIPS_UNREF(thumb); VIPS_UNREF(srgb); VIPS_UNREF(cast);
    return result;
}

/* MARK: - Writing */

/* A copy of `in` (sharing its pixels) without a single metadata field. The savers' "strip" option is not
   enough: libvips 8.14's webpsave ignores it and writes EXIF and XMP. */
static inline int tessera_strip(VipsImage *in, VipsImage **out) {
    gchar **fields;
    if (vips_copy(in, out, NULL)) return -1;
    fields = vips_image_get_fields(*out);
    for (int i = 0; fields[i]; i++) vips_image_remove(*out, fields[i]);
    g_strfreev(fields);
    return 0;
}

/* Metadata stripped; transparency flattened onto white, since JPEG has none. */
static inline int tessera_jpegsave_buffer(VipsImage *in, void **buf, size_t *len, int quality) {
    VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
    int result = vips_jpegsave_buffer(in, buf, len, "Q", quality, "strip", TRUE, "optimize_coding", TRUE,
        "background", white, NULL);
    vips_area_unref(VIPS_AREA(white));
    return result;
}

/* Metadata stripped; transparency kept. */
static inline int tessera_webpsave_buffer(VipsImage *in, void **buf, size_t *len, int quality) {
    return vips_webpsave_buffer(in, buf, len, "Q", quality, "strip", TRUE, NULL);
}

/* MARK: - Perceptual hashes: hashing.h */

#include "hashing.h"

/* MARK: - Sources kept as they are (after hashing.h, whose pixel checks and region read they share) */

/* Whether an opened JPEG, PNG or WebP can be served as its own thumbnail: pixels the hash takes as they are
   (8-bit sRGB or grey, alpha allowed), upright (no EXIF orientation to apply), one page. Reads the header only. */
static inline int tessera_is_plain(VipsImage *image) {
    return tessera_hash_takes(image) && vips_image_get_orientation(image) <= 1 && vips_image_get_n_pages(image) <= 1;
}

/* Every pixel of a JPEG (0), PNG (1) or WebP (3) in `buf` decoded into a memory image, a truncated or damaged
   file an error (`fail_on=truncated`, as thumbnails are read): for a source served as it is, which the browser
   must be able to draw. Read on the calling thread (tessera_read_whole). NULL on an error. */
static inline VipsImage *tessera_decode_buffer(const void *buf, size_t len, int loader) {
    VipsImage *lazy = NULL, *memory = NULL;
    unsigned char *copy;
    int failed;
    switch (loader) {
    case 0:
        failed = vips_jpegload_buffer((void *)buf, len, &lazy, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
            VIPS_FAIL_ON_TRUNCATED, NULL);
        break;
    case 1:
        failed = vips_pngload_buffer((void *)buf, len, &lazy, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
            VIPS_FAIL_ON_TRUNCATED, NULL);
        break;
    case 3:
        failed = vips_webpload_buffer((void *)buf, len, &lazy, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
            VIPS_FAIL_ON_TRUNCATED, NULL);
        break;
    default:
        vips_error("tessera", "only JPEG, PNG and WebP are served as they are");
        return NULL;
    }
    if (failed) return NULL;
    if ((copy = tessera_read_whole(lazy))) {
        memory = vips_image_new_from_memory_copy(copy, VIPS_IMAGE_SIZEOF_IMAGE(lazy), lazy->Xsize, lazy->Ysize,
            lazy->Bands, lazy->BandFmt);
        g_free(copy);
        if (memory) memory->Type = lazy->Type;
    }
    g_object_unref(lazy);
    return memory;
}

/* MARK: - Test fixtures: images made at test time */

/* width×height sRGB: a diagonal gradient with noise, so it compresses like a photo. */
static inline VipsImage *tessera_fixture_photo(int width, int height) {
    VipsImage *xyz = NULL, *sum = NULL, *scaled = NULL, *noise = NULL, *noisy = NULL, *rgb = NULL,
              *bands[3] = {NULL, NULL, NULL}, *cast = NULL, *out = NULL;
    if (vips_xyz(&xyz, width, height, NULL)) goto done;
    if (vips_bandmean(xyz, &sum, NULL)) goto done;
    if (vips_linear1(sum, &scaled, 510.0 / (double)(width + height), 0.0, NULL)) goto done;
    /* A fixed seed: libvips picks a random one per call, and a fixture that differs from run to run made the
       tests that measure it (its size as a JPEG, its hash) pass or fail by chance. */
    if (vips_gaussnoise(&noise, width, height, "sigma", 24.0, "mean", 0.0, "seed", 7, NULL)) goto done;
    if (vips_add(scaled, noise, &noisy, NULL)) goto done;
    if (vips_linear1(noisy, &bands[0], 1.0, 0.0, NULL)) goto done;
    if (vips_linear1(noisy, &bands[1], -1.0, 255.0, NULL)) goto done;
    if (vips_linear1(scaled, &bands[2], 0.5, 64.0, NULL)) goto done;
    if (vips_bandjoin(bands, &rgb, 3, NULL)) goto done;
    if (vips_cast(rgb, &cast, VIPS_FORMAT_UCHAR, NULL)) goto done;
    if (vips_copy(cast, &out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL)) goto done;
done:
    VIPS_UNREF(xyz); VIPS_UNREF(sum); VIPS_UNREF(scaled); VIPS_UNREF(noise); VIPS_UNREF(noisy);
    VIPS_UNREF(bands[0]); VIPS_UNREF(bands[1]); VIPS_UNREF(bands[2]); VIPS_UNREF(rgb); VIPS_UNREF(cast);
    return out;
}

/* width×height, `bands` bands of `value` as `format`, labelled `interpretation`. */
static inline VipsImage *tessera_fixture_flat(int width, int height, int bands, double value,
    VipsBandFormat format, VipsInterpretation interpretation) {
    VipsImage *black = NULL, *lit = NULL, *cast = NULL, *out = NULL;
    if (vips_black(&black, width, height, "bands", bands, NULL)) goto done;
    if (vips_linear1(black, &lit, 1.0, value, NULL)) goto done;
    if (vips_cast(lit, &cast, format, NULL)) goto done;
    if (vips_copy(cast, &out, "interpretation", interpretation, NULL)) goto done;
done:
    VIPS_UNREF(black); VIPS_UNREF(lit); VIPS_UNREF(cast);
    return out;
}

/* width×height sRGB of one colour (r, g, b). */
static inline VipsImage *tessera_fixture_solid(int width, int height, double r, double g, double b) {
    VipsImage *black = NULL, *lit = NULL, *cast = NULL, *out = NULL;
    double zero[3] = {0.0, 0.0, 0.0}, ink[3] = {r, g, b};
    if (vips_black(&black, width, height, "bands", 3, NULL)) goto done;
    if (vips_linear(black, &lit, zero, ink, 3, NULL)) goto done;
    if (vips_cast(lit, &cast, VIPS_FORMAT_UCHAR, NULL)) goto done;
    if (vips_copy(cast, &out, "interpretation", VIPS_INTERPRETATION_sRGB, NULL)) goto done;
done:
    VIPS_UNREF(black); VIPS_UNREF(lit); VIPS_UNREF(cast);
    return out;
}

/* `in` (sRGB, 3 bands) with an alpha band: opaque in the left `opaque` fraction of the width, transparent
   elsewhere, like a cut-out on a transparent background. */
static inline VipsImage *tessera_fixture_cutout(VipsImage *in, double opaque) {
    VipsImage *xyz = NULL, *x = NULL, *mask = NULL, *alpha = NULL, *out = NULL;
    if (vips_xyz(&xyz, in->Xsize, in->Ysize, NULL)) goto done;
    if (vips_extract_band(xyz, &x, 0, NULL)) goto done;
    if (vips_less_const1(x, &mask, opaque * in->Xsize, NULL)) goto done;
    if (vips_cast(mask, &alpha, VIPS_FORMAT_UCHAR, NULL)) goto done;
    if (vips_bandjoin2(in, alpha, &out, NULL)) goto done;
done:
    VIPS_UNREF(xyz); VIPS_UNREF(x); VIPS_UNREF(mask); VIPS_UNREF(alpha);
    return out;
}

/* `in` with an alpha band of `alpha` (0 transparent, 255 opaque) appended. */
static inline VipsImage *tessera_fixture_with_alpha(VipsImage *in, double alpha) {
    VipsImage *out = NULL;
    return vips_bandjoin_const1(in, &out, alpha, NULL) ? NULL : out;
}

/* Saved with every metadata field of `in` kept, as a camera or an editor would. */
static inline int tessera_fixture_jpegsave(VipsImage *in, void **buf, size_t *len) {
    return vips_jpegsave_buffer(in, buf, len, "Q", 90, NULL);
}

static inline int tessera_fixture_pngsave(VipsImage *in, void **buf, size_t *len) {
    return vips_pngsave_buffer(in, buf, len, NULL);
}

static inline int tessera_fixture_webpsave(VipsImage *in, void **buf, size_t *len, int lossless) {
    return vips_webpsave_buffer(in, buf, len, "lossless", lossless, NULL);
}

static inline int tessera_fixture_gifsave(VipsImage *in, void **buf, size_t *len) {
    return vips_gifsave_buffer(in, buf, len, NULL);
}

/* compression: VIPS_FOREIGN_HEIF_COMPRESSION_AV1 for AVIF, _HEVC for HEIC. */
static inline int tessera_fixture_heifsave(VipsImage *in, void **buf, size_t *len,
    VipsForeignHeifCompression compression) {
    return vips_heifsave_buffer(in, buf, len, "compression", compression, NULL);
}

/* sRGB `in` converted to one of libvips' built-in ICC profiles ("srgb", "p3", "cmyk"...), which it carries. */
static inline VipsImage *tessera_fixture_with_profile(VipsImage *in, const char *profile) {
    VipsImage *out = NULL;
    return vips_icc_transform(in, &out, profile, "input_profile", "srgb", NULL) ? NULL : out;
}

/* `in`'s size and bands, filled with orange (230, 120, 30). */
static inline VipsImage *tessera_fixture_orange(VipsImage *in) {
    VipsImage *out = NULL, *typed = NULL;
    double ink[3] = {230.0, 120.0, 30.0}, zero[3] = {0.0, 0.0, 0.0};
    if (vips_linear(in, &out, zero, ink, 3, NULL)) return NULL;
    if (vips_cast(out, &typed, VIPS_FORMAT_UCHAR, NULL)) typed = NULL;
    g_object_unref(out);
    return typed;
}

static inline int tessera_fixture_avg(VipsImage *in, double *out) {
    return vips_avg(in, out, NULL);
}

/* `in` scaled (up or down) and cropped to fill exactly width×height (benchmark input). */
static inline int tessera_fixture_fill(VipsImage *in, VipsImage **out, int width, int height) {
    return vips_thumbnail_image(in, out, width, "height", height, "size", VIPS_SIZE_BOTH,
        "crop", VIPS_INTERESTING_CENTRE, NULL);
}

/* Writes `in` to `path` as a JPEG of quality 85, like a camera would (benchmark input). */
static inline int tessera_fixture_jpegsave_file(VipsImage *in, const char *path) {
    return vips_jpegsave(in, path, "Q", 85, NULL);
}

/* MARK: - Test fixtures: the copies a photo gets on the web (perceptual hash measurements) */

/* `in` scaled by `scale` (both ways), with libvips' default kernel. */
static inline VipsImage *tessera_fixture_resize(VipsImage *in, double scale) {
    VipsImage *out = NULL;
    return vips_resize(in, &out, scale, NULL) ? NULL : out;
}

/* The area left, top, width×height of `in`. */
static inline VipsImage *tessera_fixture_crop(VipsImage *in, int left, int top, int width, int height) {
    VipsImage *out = NULL;
    return vips_extract_area(in, &out, left, top, width, height, NULL) ? NULL : out;
}

/* `in` mirrored left to right. */
static inline VipsImage *tessera_fixture_mirror(VipsImage *in) {
    VipsImage *out = NULL;
    return vips_flip(in, &out, VIPS_DIRECTION_HORIZONTAL, NULL) ? NULL : out;
}

/* Every band times `gain` plus `offset`, back to 8 bits (brightness and contrast). */
static inline VipsImage *tessera_fixture_levels(VipsImage *in, double gain, double offset) {
    VipsImage *lit = NULL, *out = NULL;
    if (vips_linear1(in, &lit, gain, offset, NULL)) return NULL;
    if (vips_cast(lit, &out, VIPS_FORMAT_UCHAR, NULL)) out = NULL;
    g_object_unref(lit);
    return out;
}

/* Saturation times `factor` (chroma in LCh), back to 8-bit sRGB. */
static inline VipsImage *tessera_fixture_saturate(VipsImage *in, double factor) {
    VipsImage *lch = NULL, *scaled = NULL, *srgb = NULL, *out = NULL;
    double gains[3] = {1.0, factor, 1.0}, zero[3] = {0.0, 0.0, 0.0};
    if (vips_colourspace(in, &lch, VIPS_INTERPRETATION_LCH, NULL)) goto done;
    if (vips_linear(lch, &scaled, gains, zero, 3, NULL)) goto done;
    if (vips_colourspace(scaled, &srgb, VIPS_INTERPRETATION_sRGB, NULL)) goto done;
    if (vips_cast(srgb, &out, VIPS_FORMAT_UCHAR, NULL)) out = NULL;
done:
    VIPS_UNREF(lch); VIPS_UNREF(scaled); VIPS_UNREF(srgb);
    return out;
}

/* Saved as a JPEG of quality `quality`, as sites recompress uploads. */
static inline int tessera_fixture_jpegsave_quality(VipsImage *in, void **buf, size_t *len, int quality) {
    return vips_jpegsave_buffer(in, buf, len, "Q", quality, NULL);
}

/* Saved as a lossy WebP of quality `quality`. */
static inline int tessera_fixture_webpsave_quality(VipsImage *in, void **buf, size_t *len, int quality) {
    return vips_webpsave_buffer(in, buf, len, "Q", quality, NULL);
}

#endif
