{
  "targets": [
    {
      "target_name": "lz4_dictionary",
      "sources": ["lz4_dictionary.c"],
      "cflags": ["-O2", "-Wall"],
      "libraries": ["-l:liblz4.so.1"]
    }
  ]
}
