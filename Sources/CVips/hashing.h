#ifndef TESSERA_CVIPS_HASHING_H
#define TESSERA_CVIPS_HASHING_H

#include <string.h>
#include <vips/vips.h>

#ifndef TESSERA_LOAD_OPTIONS
#define TESSERA_LOAD_OPTIONS "fail_on=truncated"
#endif

/* Included by shim.h: the C side of TesseraImageProcessing/Hashing. */

/* MARK: - Perceptual hashes */

/* A thumbnail (`thumb`, already width×height) as grey pixels: transparency flattened onto white, 16-bit
   samples shifted to 8. Copies exactly width×height bytes to `pixels`. */
static inline int tessera_grey_pixels_of(VipsImage *thumb, int width, int height, unsigned char *pixels) {
    VipsImage *flat = NULL, *grey = NULL, *cast = NULL, *band = NULL;
    void *memory = NULL;
    size_t size = 0;
    int result = -1;
    if (vips_image_hasalpha(thumb)) {
        int deep = thumb->Type == VIPS_INTERPRETATION_RGB16 || thumb->Type == VIPS_INTERPRETATION_GREY16;
        VipsArrayDouble *white = vips_array_double_newv(1, deep ? 65535.0 : 255.0);
        int failed = vips_flatten(thumb, &flat, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        if (failed) goto done;
    } else {
        flat = thumb;
        g_object_ref(flat);
    }
    if (vips_colourspace(flat, &grey, VIPS_INTERPRETATION_B_W, NULL)) goto done;
    if (vips_cast(grey, &cast, VIPS_FORMAT_UCHAR, "shift", grey->BandFmt == VIPS_FORMAT_USHORT, NULL)) goto done;
    if (vips_extract_band(cast, &band, 0, NULL)) goto done;
    if (!(memory = vips_image_write_to_memory(band, &size))) goto done;
    if (size != (size_t)width * (size_t)height) {
        vips_error("tessera", "a %dx%d grey image is %zu bytes", width, height, size);
        goto done;
    }
    memcpy(pixels, memory, size);
    result = 0;
done:
    g_free(memory);
    VIPS_UNREF(flat); VIPS_UNREF(grey); VIPS_UNREF(cast); VIPS_UNREF(band);
    return result;
}

/* `buf` decoded straight to width×height grey pixels for a perceptual hash: shrink-on-load, the aspect ratio
   not kept (a hash compares layouts, not shapes), EXIF orientation applied, then `tessera_grey_pixels_of`. */
static inline int tessera_grey_pixels_buffer(const void *buf, size_t len, int width, int height,
    unsigned char *pixels) {
    VipsImage *thumb = NULL;
    int result;
    if (vips_thumbnail_buffer((void *)buf, len, &thumb, width, "height", height, "size", VIPS_SIZE_FORCE,
            "option_string", TESSERA_LOAD_OPTIONS, NULL))
        return -1;
    result = tessera_grey_pixels_of(thumb, width, height, pixels);
    g_object_unref(thumb);
    return result;
}

/* The same from an image already decoded (a thumbnail being rendered, in memory): shrunk with the same
   resampling as the route from bytes, without decoding anything again. */
static inline int tessera_grey_pixels_image(VipsImage *in, int width, int height, unsigned char *pixels) {
    VipsImage *thumb = NULL;
    int result;
    if (vips_thumbnail_image(in, &thumb, width, "height", height, "size", VIPS_SIZE_FORCE, NULL)) return -1;
    result = tessera_grey_pixels_of(thumb, width, height, pixels);
    g_object_unref(thumb);
    return result;
}


/* MARK: - The fast route: the loader's own shrink, pixels read once */

/* The JPEG shrink (1, 2, 4 or 8) or WebP scale vips_thumbnail would pick to make width×height of a w×h image:
   the image is shrunk on load until it is about twice the target (JPEG) or the target (WebP; libwebp
   averages as it scales), leaving the rest to the resampler. */
static inline double tessera_hash_load_shrink(int jpeg, int w, int h, int width, int height) {
    double shrink = VIPS_MIN((double)w / width, (double)h / height);
    if (jpeg) return shrink >= 16 ? 8 : shrink >= 8 ? 4 : shrink >= 4 ? 2 : 1;
    return VIPS_MAX(shrink, 1.0);
}

/* Whether the fast route's resampler takes `image`'s pixels: 8-bit sRGB (3 bands, 4 with alpha) or grey (1, 2
   with alpha), not coded. */
static inline int tessera_hash_takes(const VipsImage *image) {
    return image->Coding == VIPS_CODING_NONE && image->BandFmt == VIPS_FORMAT_UCHAR &&
        ((image->Type == VIPS_INTERPRETATION_sRGB && (image->Bands == 3 || image->Bands == 4)) ||
            (image->Type == VIPS_INTERPRETATION_B_W && (image->Bands == 1 || image->Bands == 2)));
}

/* Every pixel of `image` read in one region on the calling thread and copied out, row after row
   (VIPS_IMAGE_SIZEOF_IMAGE bytes, to be freed with g_free); NULL on an error. For a small image libvips'
   pipeline and threads cost more than the decoding. */
static inline unsigned char *tessera_read_whole(VipsImage *image) {
    VipsRect all = {0, 0, image->Xsize, image->Ysize};
    size_t row = VIPS_IMAGE_SIZEOF_LINE(image);
    VipsRegion *region = vips_region_new(image);
    unsigned char *copy = NULL;
    if (region && !vips_region_prepare(region, &all)) {
        copy = g_malloc(row * (size_t)image->Ysize);
        for (int y = 0; y < image->Ysize; y++) memcpy(copy + row * y, VIPS_REGION_ADDR(region, 0, y), row);
    }
    VIPS_UNREF(region);
    return copy;
}

/* The pixels of a JPEG or WebP in `buf`, decoded with the loader's own shrink for a width×height hash, EXIF
   orientation applied: 8-bit sRGB or grey, with alpha if it has one (1 to 4 bands, `*bands`),
   `*out_width`×`*out_height`×`*bands` bytes in `*pixels`, to be freed with g_free. Read in one region on the
   calling thread: a small image costs more in libvips' pipeline and threads than in decoding.
   Returns 1 with the pixels; 0 when this route does not take the image (another format, CMYK, 16-bit),
   for `tessera_grey_pixels_buffer` to hash it; -1 on an error. */
static inline int tessera_hash_pixels_buffer(const void *buf, size_t len, int width, int height, void **pixels,
    int *out_width, int *out_height, int *bands) {
    const char *loader = vips_foreign_find_load_buffer(buf, len);
    VipsImage *header = NULL, *small = NULL, *turned = NULL;
    unsigned char *copy;
    int jpeg, webp, orientation, result = -1;
    double shrink;
    if (!loader) {
        vips_error_clear();
        return 0;
    }
    jpeg = !strcmp(loader, "VipsForeignLoadJpegBuffer");
    webp = !strcmp(loader, "VipsForeignLoadWebpBuffer");
    if (!jpeg && !webp) return 0;
    /* Header only (lazy), to choose the shrink. */
    if (jpeg ? vips_jpegload_buffer((void *)buf, len, &header, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL)
             : vips_webpload_buffer((void *)buf, len, &header, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL))
        return -1;
    if (!tessera_hash_takes(header)) {
        result = 0;
        goto done;
    }
    orientation = vips_image_get_orientation(header);
    /* Orientations 5 to 8 turn the image a quarter: its width becomes the hash's height. */
    shrink = orientation >= 5 && orientation <= 8
        ? tessera_hash_load_shrink(jpeg, header->Xsize, header->Ysize, height, width)
        : tessera_hash_load_shrink(jpeg, header->Xsize, header->Ysize, width, height);
    /* Sequential: pixels decoded straight into the region, with no copy of the whole image first. Turning
       needs the whole image, so a turned one is read at random. */
    VipsAccess access = orientation > 1 && orientation <= 8 ? VIPS_ACCESS_RANDOM : VIPS_ACCESS_SEQUENTIAL;
    if (jpeg ? vips_jpegload_buffer((void *)buf, len, &small, "shrink", (int)shrink, "access", access, "fail_on",
                   VIPS_FAIL_ON_TRUNCATED, NULL)
             : vips_webpload_buffer((void *)buf, len, &small, "scale", 1.0 / shrink, "access", access, "fail_on",
                   VIPS_FAIL_ON_TRUNCATED, NULL))
        goto done;
    if (access == VIPS_ACCESS_RANDOM) {
        if (vips_autorot(small, &turned, NULL)) goto done;
    } else {
        turned = small;
        g_object_ref(turned);
    }
    if (!(copy = tessera_read_whole(turned))) goto done;
    *pixels = copy;
    *out_width = turned->Xsize;
    *out_height = turned->Ysize;
    *bands = turned->Bands;
    result = 1;
done:
    VIPS_UNREF(header); VIPS_UNREF(small); VIPS_UNREF(turned);
    return result;
}

/* MARK: - In the render: the fast route without the decode */

/* A thumbnail being rendered (decoded, in memory: `in`), made into the fast route's small image without decoding
   anything: area-averaged to about width×height as libwebp scales a WebP on load (every source pixel weighs by
   the part of it an output pixel covers), so the resampler then does what it does after a WebP load. Same
   contract as tessera_hash_pixels_buffer: 1 with the pixels (g_free them), 0 when this route does not take
   the image (not 8-bit sRGB or grey, 1 to 4 bands, in memory), -1 on an error. */
static inline int tessera_hash_pixels_rendered(VipsImage *in, int width, int height, void **pixels,
    int *out_width, int *out_height, int *bands) {
    const unsigned char *data;
    double shrink, sx, sy;
    int w = in->Xsize, h = in->Ysize, b = in->Bands, ow, oh;
    float *rows;
    unsigned char *out;
    if (!tessera_hash_takes(in) || !(data = vips_image_get_data(in))) return 0;
    shrink = tessera_hash_load_shrink(0, w, h, width, height);
    ow = VIPS_MAX(1, VIPS_MIN(w, (int)rint(w / shrink)));
    oh = VIPS_MAX(1, VIPS_MIN(h, (int)rint(h / shrink)));
    sx = (double)w / ow;
    sy = (double)h / oh;
    /* Across first (h rows of ow), then down. A source pixel spans 1/s of an output pixel, so at most two. */
    rows = g_malloc0(sizeof(float) * (size_t)ow * b * h);
    for (int y = 0; y < h; y++) {
        const unsigned char *line = data + (size_t)y * w * b;
        float *acc = rows + (size_t)y * ow * b;
        for (int x = 0; x < w; x++) {
            double left = x / sx, right = (x + 1) / sx;
            int o = VIPS_MIN((int)left, ow - 1);
            float first = (float)(VIPS_MIN(right, o + 1) - left), rest = (float)(right - left) - first;
            for (int k = 0; k < b; k++) {
                acc[o * b + k] += first * line[x * b + k];
                if (rest > 0 && o + 1 < ow) acc[(o + 1) * b + k] += rest * line[x * b + k];
            }
        }
    }
    {
        float *sums = g_malloc0(sizeof(float) * (size_t)ow * b * oh);
        for (int y = 0; y < h; y++) {
            double top = y / sy, bottom = (y + 1) / sy;
            int o = VIPS_MIN((int)top, oh - 1);
            float first = (float)(VIPS_MIN(bottom, o + 1) - top), rest = (float)(bottom - top) - first;
            const float *acc = rows + (size_t)y * ow * b;
            float *into = sums + (size_t)o * ow * b;
            for (int i = 0; i < ow * b; i++) into[i] += first * acc[i];
            if (rest > 0 && o + 1 < oh)
                for (int i = 0; i < ow * b; i++) into[ow * b + i] += rest * acc[i];
        }
        out = g_malloc((size_t)ow * b * oh);
        for (int i = 0; i < ow * b * oh; i++) out[i] = (unsigned char)VIPS_CLIP(0, (int)(sums[i] + 0.5f), 255);
        g_free(sums);
    }
    g_free(rows);
    *pixels = out;
    *out_width = ow;
    *out_height = oh;
    *bands = b;
    return 1;
}

#endif
