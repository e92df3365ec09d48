// dropPages(start, length): a promise of 0, or the errno of madvise(MADV_DONTNEED) over that range.
module.exports = require('./build/Release/mapped_pages.node');
