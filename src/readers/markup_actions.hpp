// Actions shared by grammars that read opening-tag attributes (tag's <tool name="…">,
// and the markup tree): they collect `name="value"` pairs into the block state.
#pragma once

#include "readers/block_reader.hpp"
#include "common/markup.hpp"

namespace toolgram::detail {

template <typename Rule>
struct attribute_action : value_action<Rule> {};

template <>
struct attribute_action<grammar::markup::attr_name> {
    template <typename Input>
    static void apply(const Input& in, BlockState& st) { st.attribute_name = in.string(); }
};
// An attribute given twice with different values is refused (BlockState::add_attribute).
template <>
struct attribute_action<grammar::markup::attr_dq_text> {
    template <typename Input>
    static void apply(const Input& in, BlockState& st) { st.add_attribute(st.attribute_name, in.string()); }
};
template <>
struct attribute_action<grammar::markup::attr_sq_text> : attribute_action<grammar::markup::attr_dq_text> {};
template <>
struct attribute_action<grammar::markup::attr_bare_text> : attribute_action<grammar::markup::attr_dq_text> {};

}  // namespace toolgram::detail
