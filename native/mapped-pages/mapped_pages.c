// madvise(MADV_DONTNEED) over a range of this process's address space, on libuv's thread pool (over
// gigabytes of mapped pages the call takes milliseconds, which the event loop should not wait for).
// On a shared, read-only file mapping (how LMDB maps its file without WRITEMAP) it only drops the
// page-table entries: the data stays in the file and the page cache, and the next read faults it
// back in. The process's RSS stops counting those pages.
//
// It also reads the process's file-backed RSS right after the call, on the same thread: by the time
// the promise settles on a busy event loop, a batch may have mapped hundreds of MB again, and a
// budget measured from that later reading would let them stay.
//
// dropPagesNow makes the same call on the calling thread: a write transaction drops pages while it
// runs (its thread is the one mapping them, so nothing is gained by queueing it).
#define NAPI_VERSION 8
#include <node_api.h>
#include <sys/mman.h>
#include <errno.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <malloc.h>

typedef struct {
  uint64_t start;
  uint64_t length;
  int error;
  double file_backed_kb;
  napi_deferred deferred;
  napi_async_work work;
} Drop;

/* RssFile of /proc/self/status in kB, or -1 if it cannot be read. */
static double file_backed_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  double kb = -1;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "RssFile:", 8) == 0) {
      kb = strtod(line + 8, NULL);
      break;
    }
  }
  fclose(f);
  return kb;
}

static void run(napi_env env, void *data) {
  Drop *d = data;
  d->error = madvise((void *)(uintptr_t)d->start, (size_t)d->length, MADV_DONTNEED) == 0 ? 0 : errno;
  d->file_backed_kb = file_backed_kb();
}

static void done(napi_env env, napi_status status, void *data) {
  Drop *d = data;
  napi_value out, error, kb;
  napi_create_object(env, &out);
  napi_create_int32(env, status == napi_ok ? d->error : -1, &error);
  napi_create_double(env, d->file_backed_kb, &kb);
  napi_set_named_property(env, out, "error", error);
  napi_set_named_property(env, out, "fileBackedKb", kb);
  napi_resolve_deferred(env, d->deferred, out);
  napi_delete_async_work(env, d->work);
  free(d);
}

// dropPages(start: bigint, length: bigint): Promise<{ error, fileBackedKb }>: 0 or madvise's errno,
// and RssFile (kB) right after it.
static napi_value drop_pages(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  uint64_t start = 0, length = 0;
  bool lossless = false;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 ||
      napi_get_value_bigint_uint64(env, argv[0], &start, &lossless) != napi_ok || !lossless ||
      napi_get_value_bigint_uint64(env, argv[1], &length, &lossless) != napi_ok || !lossless) {
    napi_throw_type_error(env, NULL, "dropPages(start: bigint, length: bigint)");
    return NULL;
  }
  Drop *d = calloc(1, sizeof(Drop));
  if (!d) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  d->start = start;
  d->length = length;
  napi_value promise, name;
  napi_create_promise(env, &d->deferred, &promise);
  napi_create_string_utf8(env, "mapped-pages", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, NULL, name, run, done, d, &d->work);
  napi_queue_async_work(env, d->work);
  return promise;
}

// dropPagesNow(start: bigint, length: bigint): number: madvise on the calling thread, 0 or its errno.
static napi_value drop_pages_now(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  uint64_t start, length;
  bool lossless;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 ||
      napi_get_value_bigint_uint64(env, argv[0], &start, &lossless) != napi_ok || !lossless ||
      napi_get_value_bigint_uint64(env, argv[1], &length, &lossless) != napi_ok || !lossless) {
    napi_throw_type_error(env, NULL, "dropPagesNow(start: bigint, length: bigint)");
    return NULL;
  }
  int error = madvise((void *)(uintptr_t)start, (size_t)length, MADV_DONTNEED) == 0 ? 0 : errno;
  napi_value out;
  napi_create_int32(env, error, &out);
  return out;
}

// limitMallocArenas(n: number): boolean: glibc's mallopt(M_ARENA_MAX, n). By default glibc gives
// threads up to 8 arenas a core, and memory freed in one arena is reused only by the threads using
// it: the engine's and the decode threads' freed memory stayed resident (measured on the 1M import).
static napi_value limit_malloc_arenas(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t n = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || napi_get_value_int32(env, argv[0], &n) != napi_ok || n < 1) {
    napi_throw_type_error(env, NULL, "limitMallocArenas(n: number >= 1)");
    return NULL;
  }
  napi_value out;
  napi_get_boolean(env, mallopt(M_ARENA_MAX, n) == 1, &out);
  return out;
}

// trimMalloc(): boolean: glibc's malloc_trim(0), which gives back the free pages inside every
// arena, not only at a heap's top; whether any were given back.
static napi_value trim_malloc(napi_env env, napi_callback_info info) {
  napi_value out;
  napi_get_boolean(env, malloc_trim(0) == 1, &out);
  return out;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "limitMallocArenas", NAPI_AUTO_LENGTH, limit_malloc_arenas, NULL, &fn);
  napi_set_named_property(env, exports, "limitMallocArenas", fn);
  napi_create_function(env, "trimMalloc", NAPI_AUTO_LENGTH, trim_malloc, NULL, &fn);
  napi_set_named_property(env, exports, "trimMalloc", fn);
  napi_create_function(env, "dropPagesNow", NAPI_AUTO_LENGTH, drop_pages_now, NULL, &fn);
  napi_set_named_property(env, exports, "dropPagesNow", fn);
  napi_create_function(env, "dropPages", NAPI_AUTO_LENGTH, drop_pages, NULL, &fn);
  napi_set_named_property(env, exports, "dropPages", fn);
  return exports;
}
