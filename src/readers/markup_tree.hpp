// The element tree that the markup grammar (grammars/common/markup.hpp) builds, and the actions
// and control that build it. XML-style grammars read a tree, then decide in plain C++
// which element or attribute holds the name, the id and each argument.
//
// The grammar backtracks in one place: content tried as child elements and then as raw
// text. The control's start/failure hooks roll the tree back when that happens, so the
// tree never holds elements from a path that was abandoned.
#pragma once

#include <string>
#include <vector>

#include "readers/block_reader.hpp"
#include "common/markup.hpp"

namespace toolgram::detail {

struct Element {
    std::string name;
    std::vector<std::pair<std::string, std::string>> attributes;
    // Raw text or CDATA content when the element has no children: a view into the
    // output (which outlives the tree), so reading an element costs no copy.
    std::string_view text;
    bool cdata = false;
    bool cut = false;   // the output ended inside this element's text
    bool healed = false;  // the output ended where this element's close tag was due
    std::vector<Element> children;
    std::size_t begin = 0, end = 0;

    const std::string* attribute(std::string_view key) const {
        for (const auto& [k, v] : attributes)
            if (k == key) return &v;
        return nullptr;
    }
    const Element* child(std::initializer_list<const char*> names) const {
        for (const char* n : names)
            for (const auto& c : children)
                if (c.name == n) return &c;
        return nullptr;
    }
};

struct MarkupState : BlockState {
    std::vector<Element> open_elements;  // innermost last
    std::vector<std::string> close_tags;
    std::vector<Element> done;           // completed top-level elements
    std::vector<std::size_t> saved;      // rollback points (see markup_control)
    std::string pending_attribute;

    std::string_view close_tag() const {
        return close_tags.empty() ? std::string_view{} : std::string_view(close_tags.back());
    }
};

namespace mu = grammar::markup;

template <typename Rule>
struct markup_action : value_action<Rule> {};

template <>
struct markup_action<mu::tag_name> {
    template <typename Input>
    static void apply(const Input& in, MarkupState& st) {
        Element e;
        e.name = in.string();
        e.begin = st.offset_of(in.begin()) - 1;  // the '<'
        st.close_tags.push_back("</" + e.name + ">");
        st.open_elements.push_back(std::move(e));
    }
};
template <>
struct markup_action<mu::attr_name> {
    template <typename Input>
    static void apply(const Input& in, MarkupState& st) { st.pending_attribute = in.string(); }
};
template <>
struct markup_action<mu::attr_dq_text> {
    template <typename Input>
    static void apply(const Input& in, MarkupState& st) {
        st.open_elements.back().attributes.emplace_back(st.pending_attribute, in.string());
    }
};
template <>
struct markup_action<mu::attr_sq_text> : markup_action<mu::attr_dq_text> {};
template <>
struct markup_action<mu::attr_bare_text> : markup_action<mu::attr_dq_text> {};
template <>
struct markup_action<mu::cdata_text> {
    template <typename Input>
    static void apply(const Input& in, MarkupState& st) {
        st.open_elements.back().text = in.string_view();
        st.open_elements.back().cdata = true;
    }
};
template <>
struct markup_action<mu::text_then_close> {
    template <typename Input>
    static void apply(const Input& in, MarkupState& st) {
        const std::string_view s = in.string_view();
        st.open_elements.back().text = s.substr(0, s.size() - st.close_tag().size());
    }
};
template <>
struct markup_action<mu::text_cut> {
    template <typename Input>
    static void apply(const Input& in, MarkupState& st) {
        st.open_elements.back().text = in.string_view();
        st.open_elements.back().cut = true;
    }
};
template <>
struct markup_action<mu::children_end> {
    template <typename Input>
    static void apply(const Input& in, MarkupState& st) {
        if (in.empty()) st.open_elements.back().healed = true;  // eof took the close tag's place
    }
};
template <>
struct markup_action<mu::element_body> {
    template <typename Input>
    static void apply(const Input& in, MarkupState& st) {
        Element e = std::move(st.open_elements.back());
        st.open_elements.pop_back();
        st.close_tags.pop_back();
        e.end = st.offset_of(in.end());
        if (e.healed || e.cut) st.healed = st.healed || e.healed;
        if (st.open_elements.empty()) st.done.push_back(std::move(e));
        else st.open_elements.back().children.push_back(std::move(e));
    }
};

// Rollback: an abandoned element_body or children path leaves the tree as it was.
template <typename Rule>
struct markup_control : grammar::errors::control<Rule> {};

template <>
struct markup_control<mu::element_body> : grammar::errors::control<mu::element_body> {
    using base = grammar::errors::control<mu::element_body>;  // its hooks report to a coverage run
    template <typename Input>
    static void start(const Input& in, MarkupState& st) {
        base::start(in, st);
        st.saved.push_back(st.open_elements.size());
    }
    template <typename Input>
    static void success(const Input& in, MarkupState& st) {
        if (st.raised) return;
        base::success(in, st);
        st.saved.pop_back();
    }
    template <typename Input>
    static void failure(const Input& in, MarkupState& st) {
        if (st.raised) return;  // unwinding from a raise: the tree stays as it was
        base::failure(in, st);
        const std::size_t n = st.saved.back();
        st.saved.pop_back();
        st.open_elements.resize(n);
        st.close_tags.resize(n);
    }
};
template <>
struct markup_control<mu::children> : grammar::errors::control<mu::children> {
    using base = grammar::errors::control<mu::children>;
    template <typename Input>
    static void start(const Input& in, MarkupState& st) {
        base::start(in, st);
        st.saved.push_back(st.open_elements.back().children.size());
    }
    template <typename Input>
    static void success(const Input& in, MarkupState& st) {
        if (st.raised) return;
        base::success(in, st);
        st.saved.pop_back();
    }
    template <typename Input>
    static void failure(const Input& in, MarkupState& st) {
        if (st.raised) return;  // unwinding from a raise: the tree stays as it was
        base::failure(in, st);
        st.open_elements.back().children.resize(st.saved.back());
        st.saved.pop_back();
    }
};

// Decodes the five XML entities and numeric references; other text is kept as written.
std::string decode_entities(std::string_view text);

}  // namespace toolgram::detail

namespace toolgram::grammar::errors {
// Only the markup's own rules roll back: JSON values read as under errors::control.
template <>
inline constexpr bool reads_values_as_control<::toolgram::detail::markup_control> = true;
}  // namespace toolgram::grammar::errors
