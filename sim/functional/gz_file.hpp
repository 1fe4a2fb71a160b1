#pragma once
/// A zlib file handle that closes itself. zlib's gz* functions read gzip and plain files alike, so
/// the dataset readers accept both (sim/functional/dataset.cpp, idx_dataset.cpp).
///
///     GzFile f(gzopen(path.c_str(), "rb"));
///     if (!f) throw InputError(path, "", "cannot open the file");
#include <zlib.h>

#include <memory>

namespace coinfer {

struct GzCloser {
  void operator()(gzFile f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

}  // namespace coinfer
