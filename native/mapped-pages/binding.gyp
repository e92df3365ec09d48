{
  "targets": [
    {
      "target_name": "mapped_pages",
      "sources": ["mapped_pages.c"],
      "cflags": ["-O2", "-Wall"]
    }
  ]
}
