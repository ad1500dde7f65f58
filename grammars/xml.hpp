// The XML markup format: a call written as elements.
//
//   <tool_call><name>get_weather</name><arguments>{"city": "Antwerp"}</arguments></tool_call>
//   <function_call name="get_weather"><parameter name="city">Antwerp</parameter></function_call>
//   <function_calls><invoke name="get_weather"><parameter name="city">Antwerp</parameter></invoke></function_calls>
//
// The grammar reads the element tree (grammars/common/markup.hpp); which element holds the name,
// the id and each argument (attribute, nested field, JSON body, parameters) is decided by
// the actions, which accept the key aliases docs/formats.md lists. Parameter values are text and
// are typed from the tool's schema in phase two.
#pragma once

#include <tao/pegtl.hpp>

#include "common/markup.hpp"

namespace toolgram::grammar::xml {
using namespace tao::pegtl;

struct name_ends : not_at<sor<alnum, one<'_', '-', ':'>>> {};
struct call_tag
    : sor<string<'t', 'o', 'o', 'l', '_', 'c', 'a', 'l', 'l', 's'>,
          string<'t', 'o', 'o', 'l', '_', 'c', 'a', 'l', 'l'>,
          string<'f', 'u', 'n', 'c', 't', 'i', 'o', 'n', '_', 'c', 'a', 'l', 'l', 's'>,
          string<'f', 'u', 'n', 'c', 't', 'i', 'o', 'n', '_', 'c', 'a', 'l', 'l'>,
          string<'i', 'n', 'v', 'o', 'k', 'e'>> {};
struct block : seq<at<one<'<'>, call_tag, name_ends>, markup::element> {};

}  // namespace toolgram::grammar::xml
