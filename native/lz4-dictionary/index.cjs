// loadDictionary(bytes) and compressInto(dictionary, src, dst, offset): see index.d.ts.
module.exports = require('./build/Release/lz4_dictionary.node');
