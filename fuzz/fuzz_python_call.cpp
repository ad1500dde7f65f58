// Harness for the Python call piece (grammars/common/python_call.hpp with the actions of
// src/readers/python_call_actions.hpp), shared by the bracket format and the pythonic families:
// `name(key=literal, …)` with Python literals (single quotes, True/False/None, tuples,
// \x escapes) as values.
//
// Oracles (abort on violation):
//  - a read never throws past the reader (a malformed call is a failure with an offset
//    inside the input) and reads the same twice;
//  - every call read lies inside the input, and its arguments leave as valid UTF-8 JSON
//    (once each number with leading zeros, held for phase two, is settled to its text,
//    as a string schema settles it);
//  - parse → render → parse: a call read without a problem, written back as Python
//    (render_calls("bracket")) and read again, gives the same name and arguments.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "readers/grammar_def.hpp"
#include "readers/python_call_actions.hpp"
#include "text/utf8.hpp"

namespace {

namespace pc = toolgram::grammar::python_call;
using toolgram::detail::PythonCallState;
using toolgram::detail::ScanContext;
using toolgram_fuzz::fail;
using toolgram_fuzz::json;

struct call_at_start : tao::pegtl::seq<toolgram::grammar::lenient::ws, pc::call> {};

struct Read {
    toolgram::detail::RunResult run;
    std::vector<toolgram::detail::Candidate> calls;
};

Read read_calls(std::string_view text, const toolgram::Settings& settings) {
    ScanContext ctx(text, settings);
    PythonCallState st;
    Read r;
    r.run = toolgram::detail::run_rule_at<call_at_start, toolgram::detail::python_call_action>(ctx, 0, st);
    r.calls = std::move(st.calls);
    for (auto& c : r.calls) c.repairs = st.repairs;  // the block's repairs, as python_call_block gives them
    return r;
}

std::string describe(const Read& r) {
    std::string out = (r.run.matched ? "matched@" : "no@") + std::to_string(r.run.end) +
                      (r.run.failed ? " failed@" + std::to_string(r.run.failure.offset) + " " + r.run.failure.message
                                    : std::string());
    for (const auto& c : r.calls)
        out += " " + c.name + c.arguments.dump(-1, ' ', false, json::error_handler_t::replace) + c.problem;
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const toolgram::Settings settings;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const Read r = read_calls(text, settings);
    if (describe(r) != describe(read_calls(text, settings))) fail("determinism", "a call reads differently twice");
    if (r.run.matched && r.run.end > size) fail("python-call", "a match ends past the input");
    if (r.run.failed && r.run.failure.offset > size) fail("python-call", "a failure is placed past the input");
    if (!r.run.matched || r.calls.size() != 1) return 0;

    toolgram::detail::Candidate c = r.calls.front();
    if (c.begin > c.end || c.end > size) fail("python-call", "a call's span lies outside the input");
    const bool held = toolgram_fuzz::settle_ambiguous_as_text(c.arguments) > 0;
    if (held && (c.repairs & toolgram::detail::repair_leading_zeros) == 0)
        fail("python-call", "a number held for phase two with no leading_zero_number repair");
    toolgram::detail::make_valid_utf8(c.arguments);
    toolgram_fuzz::check_json_out(c.arguments, "a Python call's arguments");
    if (!c.problem.empty() || !c.arguments.is_object()) return 0;

    const toolgram::Call call{"", c.name, c.arguments};
    const std::string written = toolgram::detail::render_calls("bracket", {call}, settings);
    const Read again = read_calls(written.substr(1, written.size() - 2), settings);  // without the list's [ ]
    if (!again.run.matched || again.calls.size() != 1)
        fail("round-trip", "a rendered call does not read back: " + written.substr(0, 400));
    const auto& back = again.calls.front();
    if (back.name != c.name || back.arguments != c.arguments || !back.problem.empty())
        fail("round-trip", "a rendered call reads back differently: " + written.substr(0, 400));
    return 0;
}
