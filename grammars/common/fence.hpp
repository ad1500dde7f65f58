// Markdown code fences, as models wrap payloads in them: ```json … ```.
//
// Shared by every grammar that tolerates a fenced payload (inside tags, around a whole
// JSON answer, after a marker). Only the fence itself is matched here; whether a fenced
// call is an *example* is the combinator's judgement, not the grammar's.
#pragma once

#include <tao/pegtl.hpp>

namespace toolgram::grammar::fence {
using namespace tao::pegtl;

struct info : star<sor<alnum, one<'_', '-', '+'>>> {};
struct open : seq<three<'`'>, info, star<blank>> {};
struct close : three<'`'> {};

}  // namespace toolgram::grammar::fence
