// dropPages(start, length): a promise of { error, fileBackedKb }: 0 or the errno of
// madvise(MADV_DONTNEED) over that range, and RssFile right after it. dropPagesNow(start, length):
// the same madvise on the calling thread (inside a write): 0 or its errno.
module.exports = require('./build/Release/mapped_pages.node');
