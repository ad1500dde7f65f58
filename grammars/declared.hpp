// The run-time grammar: a syntax declared in a profile file (toolgram.hpp's
// DeclaredSyntax), read by the same building blocks the compiled families use.
//
//   [SECTION_OPEN]  CALL_OPEN HEADER ARGUMENTS [CALL_CLOSE]  …  [SECTION_CLOSE]
//
//   HEADER     nothing (the JSON payload names the call, as hermes), or tokens
//              `[PREFIX]NAME[SEP INDEX] [ID_MARKER ID] END` (Kimi, DeepSeek, Mistral,
//              Qwen3-Coder's `<function=NAME>`, GLM's bare name), or the name as an
//              attribute of the opening tag (`<invoke name="NAME">`);
//   ARGUMENTS  a JSON object (json_block's body and closer handling), or named text
//              parameters (params.hpp's shapes: values end at their closer or, where a
//              model left it out, at the next parameter or the call's closer), or
//              key-value pairs (the same with no opener: `city=Paris; days=3`); or, with
//              no header, Python calls (pythonic.hpp's list or lines).
//
// Every token is a run-time rule reading the declared spellings (runtime_literal.hpp's
// list rules), and where the families differ in structure, `select` picks the branch the
// syntax declares (the section required or not, the header's form, a call that declines
// or commits). So a profile file gets exactly the behaviours the built-in families have —
// healing, stray text, missing closers, cut values, end-of-text reporting for streams —
// and nothing here is written for one family. The rules reach the syntax through
// `syntax_of(state)` (src/declared/declared_syntax.hpp), found by argument-dependent lookup.
#pragma once

#include <cstddef>

#include <tao/pegtl.hpp>
#include <tao/pegtl/contrib/analyze_traits.hpp>

#include "common/error_messages.hpp"
#include "common/json_block.hpp"
#include "common/markup.hpp"
#include "common/params.hpp"
#include "pythonic.hpp"
#include "common/runtime_literal.hpp"

namespace toolgram::grammar::declared {
using namespace tao::pegtl;

// Where whitespace may stand between header tokens (the order of DeclaredSyntax::Space).
enum class space_mode : unsigned char { any, blanks, none, line_break };

// ---------------------------------------------------------------------------------------
// Run-time pieces.

// Picks the rule at the index `Getter::get(state)` returns; fails on an index past the
// list. The structure a syntax declares, chosen once per read rather than per byte.
template <typename Getter, typename... Rules>
struct select {
    using rule_t = select;
    using subs_t = type_list<Rules...>;

    template <apply_mode A, rewind_mode M, template <typename...> class Action, template <typename...> class Control,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        const std::size_t which = Getter::get(st);
        std::size_t i = 0;
        bool matched = false;
        (void)((i++ == which ? (matched = Control<Rules>::template match<A, M, Action, Control>(in, st), true) : false) ||
               ...);
        return matched;
    }
};

// One or more bytes of a run-time character class (`Getter::get(state)` has
// first_of/rest_of): a name, an id, a key.
template <typename Getter>
struct runtime_word {
    using rule_t = runtime_word;
    using subs_t = empty_list;

    template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        const auto& chars = Getter::get(st);
        if (in.size(1) < 1 || !chars.first_of(in.peek_uint8(0))) return false;
        std::size_t n = 1;
        while (in.size(n + 1) > n && chars.rest_of(in.peek_uint8(n))) ++n;
        in.bump(n);
        return true;
    }
};

// The whitespace the syntax allows between header tokens; always succeeds.
template <typename Getter>
struct runtime_space {
    using rule_t = runtime_space;
    using subs_t = empty_list;

    template <apply_mode, rewind_mode, template <typename...> class, template <typename...> class,
              typename ParseInput, typename State>
    [[nodiscard]] static bool match(ParseInput& in, State& st) {
        const space_mode mode = Getter::get(st);
        std::size_t n = 0;
        switch (mode) {
            case space_mode::none: break;
            case space_mode::line_break:
                if (in.size(1) >= 1 && in.peek_char(0) == '\n') n = 1;
                else if (in.size(1) >= 1 && in.peek_char(0) == '\r' && in.size(2) >= 2 && in.peek_char(1) == '\n') n = 2;
                break;
            case space_mode::blanks:
                while (in.size(n + 1) > n && (in.peek_char(n) == ' ' || in.peek_char(n) == '\t')) ++n;
                break;
            case space_mode::any:
                while (in.size(n + 1) > n && ascii::space::test(in.peek_char(n))) ++n;
                break;
        }
        in.bump(n);
        return true;
    }
};

// ---------------------------------------------------------------------------------------
// What the rules read from the syntax.

struct section_open_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).section_open; }
};
struct section_close_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).section_close; }
};
struct call_open_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).call_open; }
};
struct call_close_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).call_close; }
};
struct name_prefix_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).name_prefix; }
};
struct index_separator_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).id_after_name; }
};
struct id_marker_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).id_marker; }
};
struct header_end_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).header_end; }
};
struct parameter_open_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).param_open; }
};
struct key_end_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).key_end; }
};
struct value_open_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).value_open; }
};
struct parameter_close_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).param_close; }
};
struct value_ends_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).value_ends; }
};
struct parameter_open_needles_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).param_open_needles; }
};

struct name_chars_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).name; }
};
struct id_chars_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).id; }
};
struct key_chars_of {
    template <typename S> static const auto& get(const S& st) { return syntax_of(st).key; }
};
struct space_of {
    template <typename S> static space_mode get(const S& st) { return static_cast<space_mode>(syntax_of(st).space); }
};
// Choices for `select` (0 or 1, or the header's form).
struct opening_of {
    template <typename S> static std::size_t get(const S& st) { return static_cast<std::size_t>(syntax_of(st).opening); }
};
struct opener_is_optional {
    template <typename S> static std::size_t get(const S& st) { return syntax_of(st).call_open_optional; }
};
struct payload_names_call {
    template <typename S> static std::size_t get(const S& st) { return opening_of::get(st) == 0; }  // Opening::bare
};
struct call_form_of {
    template <typename S> static std::size_t get(const S& st) { return static_cast<std::size_t>(syntax_of(st).call_form); }
};
struct is_one_a_line {
    template <typename S> static std::size_t get(const S& st) { return syntax_of(st).one_a_line; }
};
struct has_header_end {
    template <typename S> static std::size_t get(const S& st) { return !syntax_of(st).header_end.empty(); }
};
struct has_value_open {
    template <typename S> static std::size_t get(const S& st) { return !syntax_of(st).value_open.empty(); }
};
struct parameter_head_of {
    template <typename S> static std::size_t get(const S& st) { return syntax_of(st).parameter_head; }
};
struct is_key_value {
    template <typename S> static std::size_t get(const S& st) { return syntax_of(st).parameter_head == 2; }
};
struct calls_commit {
    template <typename S> static std::size_t get(const S& st) { return syntax_of(st).committed; }
};
struct has_section {
    template <typename S> static std::size_t get(const S& st) { return syntax_of(st).has_section; }
};
struct section_is_required {
    template <typename S> static std::size_t get(const S& st) { return syntax_of(st).section_required; }
};

// ---------------------------------------------------------------------------------------
// Tokens and the header.

struct sp : runtime_space<space_of> {};
struct section_open : runtime_any_literal<section_open_of> {};
struct section_close : runtime_any_literal<section_close_of> {};
struct call_open : runtime_any_literal<call_open_of> {};
struct call_opener : select<opener_is_optional, call_open, opt<call_open>> {};
struct call_close : runtime_any_literal<call_close_of> {};

struct name_prefix : runtime_any_literal<name_prefix_of> {};
struct function_name : runtime_word<name_chars_of> {};
struct index_separator : runtime_any_literal<index_separator_of> {};
struct call_index : runtime_word<id_chars_of> {};
// functions.get_weather:0 — the reference Kimi's id is.
struct call_ref : seq<opt<name_prefix>, function_name, opt<index_separator, call_index>> {};
struct id_marker : runtime_any_literal<id_marker_of> {};
struct call_id : runtime_word<id_chars_of> {};
struct id_part : seq<id_marker, sp, call_id, sp> {};
struct header_end : runtime_any_literal<header_end_of> {};

// A name with no end token (GLM's `<tool_call>NAME\n<arg_key>`) must be followed by what
// only a call holds next: a parameter, the call's closer, or the end of output.
struct parameter_start : runtime_any_literal<parameter_open_of> {};
struct name_followed : seq<params::ws, at<sor<parameter_start, call_close, eof>>> {};
struct name_end : select<has_header_end, name_followed, header_end> {};
struct header_tokens : seq<call_ref, sp, opt<id_part>, name_end> {};

struct attribute_header : params::attribute_open<call_open> {};  // <invoke name="NAME">
struct token_header : seq<call_opener, sp, header_tokens> {};
struct optional_token_header : seq<call_opener, sp, opt<header_tokens>> {};

// The call's opening in each form of DeclaredSyntax's header (src/declared/declared_syntax.hpp's
// Opening: bare, attribute, tokens, optional tokens).
struct json_opening : select<opening_of, call_opener, attribute_header, token_header, optional_token_header> {};
// The opening that names the call (a header on its own, for a call cut right after it).
struct named_opening : select<opening_of, failure, attribute_header, token_header, token_header> {};

// ---------------------------------------------------------------------------------------
// JSON arguments: json_block's body, and its closer handling with the declared closers.

struct close_cut_off : any_literal_prefix_at_end<call_close_of> {};
struct stray_text_then_close : skip_to_any_literal<call_close_of> {};
struct json_call_end
    : sor<call_close, json_block::end_cut_off, close_cut_off, stray_text_then_close, json_block::missing_end_tag> {};
// Closed: several call objects may stand in one (json_block's calls_body), as in hermes.
struct is_object_first {
    template <typename S> static std::size_t get(const S& st) { return syntax_of(st).object_first; }
};
// `{`, or `[` then `{`, ahead: a call object opens the payload.
struct object_ahead : at<lenient::ws, sor<one<'{'>, seq<one<'['>, lenient::ws, one<'{'>>>> {};
struct payload_may_start : select<is_object_first, success, object_ahead> {};
struct json_calls_body
    : seq<payload_may_start, select<is_one_a_line, json_block::calls_body, json_block::lines_body>> {};
struct json_call_closed : seq<json_opening, json_calls_body, json_call_end> {};
// No closer: the payload ends the call. Where the payload names the call (no header),
// call objects may follow one another, one a line or back to back (MiniMax-M1's
// `<tool_calls>` then one object a line), each its own call; after a header, the one
// object is its arguments.
struct json_call_open_ended : seq<json_opening, select<payload_names_call, json_block::body, json_calls_body>> {};
// A closer a model may add after the payload that ended the call (granite-20b-functioncalling).
struct json_call_then_close : seq<json_call_open_ended, opt<call_close>> {};
struct json_call : select<call_form_of, json_call_open_ended, json_call_closed, json_call_then_close> {};

// ---------------------------------------------------------------------------------------
// Named text parameters, in params.hpp's shapes.

struct parameter_key : runtime_word<key_chars_of> {};
struct key_end : runtime_any_literal<key_end_of> {};
struct token_parameter_open : seq<parameter_start, parameter_key, key_end> {};
struct attribute_parameter_open : params::attribute_open<parameter_start> {};
struct bare_parameter_open : seq<parameter_key, key_end> {};  // key_value: `city=`
struct parameter_head
    : select<parameter_head_of, token_parameter_open, attribute_parameter_open, bare_parameter_open> {};
struct value_open : runtime_any_literal<value_open_of> {};
struct parameter_open : seq<parameter_head, select<has_value_open, success, seq<params::ws, value_open>>> {};
struct parameter_close : runtime_any_literal<parameter_close_of> {};
struct next_call : sor<call_open, section_close> {};

// Tagged parameters end where the structure after a candidate end shows it is one
// (param_value.hpp), as in the built-in families; key-value pairs, with no tags a value
// could hold, at the first separator or key.
struct call_body_start : seq<named_opening, params::ws, sor<parameter_start, call_close>> {};
struct value_syntax {  // a Syntax (param_value.hpp), not a rule
    using open = parameter_open;
    using close = parameter_close;
    using call_close = declared::call_close;
    using call_next = next_call;
    using open_spellings = parameter_open_needles_of;
    using close_spellings = parameter_close_of;
    using call_close_spellings = call_close_of;
    using call_next_spellings = params::spellings_of<call_open_of, section_close_of>;
    using nested = params::nested_list<params::nested<seq<section_open, params::ws, named_opening>,
                                                      section_open_of, section_close_of>,
                                       params::nested<call_body_start, call_open_of, call_close_of>>;
};
struct tagged_value : params::value<value_syntax> {};
struct key_value_value : text_until_any_literal<value_ends_of> {};
struct parameter_value : select<is_key_value, tagged_value, key_value_value> {};
struct parameter : params::parameter<parameter_open, parameter_value, parameter_close> {};

struct declining_call : params::call<named_opening, parameter, call_close, next_call> {};
struct committed_call : params::committed_call<named_opening, parameter, call_close, next_call> {};
struct params_call : select<calls_commit, declining_call, committed_call> {};
struct wrapped_calls : params::wrapper<section_open, params_call, section_close> {};
// A call written without the section's opener may still end with its closer (Qwen3-Coder,
// ollama#16686): that closer is the call's, tool syntax rather than prose.
struct orphan_section_close : seq<params::ws, section_close> {};
struct unwrapped_call : seq<params_call, select<has_section, success, opt<orphan_section_close>>> {};
struct params_block
    : sor<select<has_section, failure, wrapped_calls>, select<section_is_required, unwrapped_call, failure>> {};

// ---------------------------------------------------------------------------------------
// Python calls between the call markers (pythonic.hpp's list or lines of calls), as LFM2's
// <|tool_call_start|>[get_weather(city='Paris')]<|tool_call_end|>. The closer may be cut
// off (healed) or missing (the block ends with its calls).

struct python_calls_end : sor<call_close, pythonic::end_cut_off, pythonic::missing_end_tag> {};
struct python_block : seq<call_open, lenient::ws, pythonic::calls, lenient::ws, python_calls_end> {};

// ---------------------------------------------------------------------------------------
// Errors: the families' table (error_messages.hpp) has one message per rule, fixed at
// compile time; a declared parameter's message names the declared tokens, so it is the
// syntax's (`<arg_key>NAME</arg_key><arg_value>value</arg_value> or </tool_call> expected`).

template <typename Rule>
struct control : errors::control<Rule> {
    template <typename ParseInput, typename State>
    static void raise(const ParseInput& in, State& st) {
        if constexpr (std::is_same_v<Rule, parameter>) {
            notify_rule<Rule>(RuleEvent::raise);
            errors::raise_at(syntax_of(st).parameter_message.c_str(), in, st);  // the syntax outlives the parse
        } else {
            errors::control<Rule>::raise(in, st);
        }
    }
};

}  // namespace toolgram::grammar::declared

namespace toolgram::grammar::errors {
// Only `parameter` raises differently: JSON values read as under errors::control.
template <>
inline constexpr bool reads_values_as_control<declared::control> = true;
}  // namespace toolgram::grammar::errors

namespace tao::pegtl {
template <typename Name, typename Getter, typename... Rules>
struct analyze_traits<Name, toolgram::grammar::declared::select<Getter, Rules...>> : analyze_sor_traits<Rules...> {};
template <typename Name, typename Getter>
struct analyze_traits<Name, toolgram::grammar::declared::runtime_word<Getter>> : analyze_any_traits<> {};
template <typename Name, typename Getter>
struct analyze_traits<Name, toolgram::grammar::declared::runtime_space<Getter>> : analyze_opt_traits<> {};
}  // namespace tao::pegtl
