// LZ4 block compression against a preset dictionary, with the dictionary's hash table built once:
// liblz4's stream loaded with the dictionary is kept as a template and copied before each value
// (a copy of the 16 KB state instead of hashing the dictionary again per value).
// Declared here rather than included: Debian ships the library (liblz4-1) without its headers.
#define NAPI_VERSION 8
#include <node_api.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

int LZ4_sizeofState(void);
void *LZ4_initStream(void *buffer, size_t size);
int LZ4_loadDict(void *stream, const char *dictionary, int dictSize);
int LZ4_compress_fast_continue(void *stream, const char *src, char *dst, int srcSize, int dstCapacity, int acceleration);

typedef struct {
  char *dict;
  int dict_size;
  int state_size;
  void *loaded;
  void *work;
} Dictionary;

static void finalize(napi_env env, void *data, void *hint) {
  Dictionary *d = data;
  free(d->dict);
  free(d->loaded);
  free(d->work);
  free(d);
}

static napi_value throw_error(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

static int bytes_of(napi_env env, napi_value v, char **data, size_t *length) {
  napi_typedarray_type type;
  napi_value buffer;
  size_t offset;
  if (napi_get_typedarray_info(env, v, &type, length, (void **)data, &buffer, &offset) != napi_ok || type != napi_uint8_array) return 0;
  return 1;
}

/* loadDictionary(bytes): a handle for compressInto. */
static napi_value load_dictionary(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char *bytes;
  size_t length;
  if (argc < 1 || !bytes_of(env, argv[0], &bytes, &length) || length > 65536) return throw_error(env, "expected a Uint8Array of at most 64 KB");
  Dictionary *d = calloc(1, sizeof *d);
  d->state_size = LZ4_sizeofState();
  d->dict = malloc(length ? length : 1);
  memcpy(d->dict, bytes, length);
  d->dict_size = (int)length;
  d->loaded = malloc(d->state_size);
  d->work = malloc(d->state_size);
  LZ4_initStream(d->loaded, d->state_size);
  LZ4_loadDict(d->loaded, d->dict, d->dict_size);
  napi_value handle;
  napi_create_external(env, d, finalize, NULL, &handle);
  return handle;
}

/* compressInto(handle, src, dst, offset): the LZ4 block of src written to dst from offset, its
 * length, or 0 when it does not fit. */
static napi_value compress_into(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  Dictionary *d;
  char *src, *dst;
  size_t src_length, dst_length;
  uint32_t offset;
  if (argc < 4 || napi_get_value_external(env, argv[0], (void **)&d) != napi_ok || !bytes_of(env, argv[1], &src, &src_length) || !bytes_of(env, argv[2], &dst, &dst_length) || napi_get_value_uint32(env, argv[3], &offset) != napi_ok || offset > dst_length || src_length > 0x7e000000) return throw_error(env, "expected (dictionary, Uint8Array, Uint8Array, offset)");
  memcpy(d->work, d->loaded, d->state_size);
  int n = LZ4_compress_fast_continue(d->work, src, dst + offset, (int)src_length, (int)(dst_length - offset), 1);
  napi_value result;
  napi_create_int32(env, n, &result);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    {"loadDictionary", NULL, load_dictionary, NULL, NULL, NULL, napi_default, NULL},
    {"compressInto", NULL, compress_into, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, 2, props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
