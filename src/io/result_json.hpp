// The result document before its strings are made valid UTF-8, for a writer that makes
// them valid as it writes (json_writer.hpp's write_compact_json_made_valid): `to_json`
// is this document passed through make_valid_utf8, which copies every string holding an
// invalid byte, and the content of a large output may be most of the input.
#pragma once

#include "toolgram/toolgram.hpp"

namespace toolgram::detail {

// to_json(Result&&) but for make_valid_utf8: strings keep the model's bytes.
json result_document(Result&& r);

}  // namespace toolgram::detail
