// The `toolgram` command line: parse model output into calls, print format instructions,
// list profiles and grammars, report grammar coverage across models (coverage_command.cpp).
//
// Output is JSON on stdout (always valid UTF-8); messages for people go to stderr.
// Exit codes: 0 done (finding no call is not a failure), 2 usage error, 3 unreadable,
// invalid or too long input file (tools, profile, text, chat template), 4 output that could
// not be written (a full disk, /dev/full), 5 `profiles --for-template` named no single
// profile, 1 unexpected internal error.
//
// Every input is read within a limit (bounded_read.hpp) and every JSON document with the
// bounded reader (json_document.hpp), so no file makes the CLI grow without bound, hang
// on a directory or overflow its stack. Every write to stdout is checked, and a JSONL
// batch flushes each result as it is made: what was computed is never lost, and output
// that was lost is never reported as success.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <iostream>
#include <optional>
#include <set>
#include <streambuf>
#include <string>
#include <vector>

#include <malloc.h>
#include <unistd.h>

#include "io/bounded_read.hpp"
#include "readers/grammar_def.hpp"
#include "jobs.hpp"
#include "value/json_document.hpp"
#include "io/json_writer.hpp"
#include "ordered_pool.hpp"
#include "profiles/profile_file.hpp"
#include "validation/record_tools.hpp"
#include "io/result_json.hpp"
#include "toolgram/chat_template.hpp"
#include "toolgram/toolgram.hpp"
#include "text/utf8.hpp"

namespace toolgram::cli {
int coverage_command(const std::vector<std::string>& args);  // src/cli/coverage_command.cpp
int formats_reference();                                      // src/cli/formats_command.cpp
}

namespace {

using toolgram::json;

constexpr int exit_usage = 2;
constexpr int exit_input = 3;
constexpr int exit_output = 4;
constexpr int exit_no_profile = 5;  // profiles --for-template: unknown, not read yet or ambiguous

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// std::cout's buffer: write(2) to stdout, keeping the first error. iostreams only set a
// bit when a write fails, and by the time anyone looks errno says nothing (a long string
// is written past the buffer, at once); this keeps the cause (ENOSPC) for the message.
class StdoutBuffer : public std::streambuf {
public:
    StdoutBuffer() { setp(buffer_, buffer_ + sizeof buffer_); }
    int error() const { return error_; }

protected:
    int_type overflow(int_type c) override {
        if (!drain()) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    bool drain() {
        const char* from = pbase();
        std::size_t left = static_cast<std::size_t>(pptr() - pbase());
        setp(buffer_, buffer_ + sizeof buffer_);
        while (left > 0 && error_ == 0) {
            const ssize_t put = ::write(STDOUT_FILENO, from, left);
            if (put < 0 && errno == EINTR) continue;
            if (put < 0) error_ = errno;
            else {
                from += put;
                left -= static_cast<std::size_t>(put);
            }
        }
        return error_ == 0;  // after an error, nothing more is written: the output is broken
    }

    char buffer_[64 * 1024];
    int error_ = 0;
};

// Never destroyed: std::cout is flushed once more at exit, after main's locals are gone.
StdoutBuffer& stdout_buffer() {
    static StdoutBuffer* buffer = new StdoutBuffer;
    return *buffer;
}

// Pushes what is buffered for stdout to the file and checks it arrived: a result that a
// full disk swallowed must not pass for success.
void flush_stdout() {
    std::cout.flush();
    if (const int e = stdout_buffer().error(); e != 0 || !std::cout)
        throw OutputError(std::string("cannot write the output: ") + std::strerror(e ? e : EIO));
}

// A whole number for an option: digits only (no sign, no space, nothing after them, not
// empty), within [min, max]. std::stoul took "-1" as 2^64-1 and "5abc" as 5.
std::size_t count_option(const std::string& flag, const std::string& v, std::size_t min, std::size_t max) {
    std::size_t n = 0;
    const char* end = v.data() + v.size();
    const auto [stop, ec] = std::from_chars(v.data(), end, n);
    const bool digits_only = !v.empty() && v.find_first_not_of("0123456789") == std::string::npos;
    if (!digits_only || ec != std::errc() || stop != end || n < min || n > max)
        throw UsageError(flag + " needs a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                         ", got \"" + v + "\"");
    return n;
}

// The tag grammar scans for its delimiters: an empty one would match at every byte, and
// profile files refuse it for that reason.
std::string tag_option(const std::string& flag, const std::string& v) {
    if (v.empty()) throw UsageError(flag + " needs a non-empty tag");
    if (v.size() > toolgram::max_marker_bytes)
        throw UsageError(flag + ": " + std::to_string(v.size()) + " bytes, longer than the " +
                         std::to_string(toolgram::max_marker_bytes) + " bytes a marker may be");
    return v;
}

constexpr std::size_t max_chunk = std::size_t{1} << 30;
constexpr std::size_t max_fallback_bytes = std::size_t{1} << 30;

const char* main_help =
    "usage: toolgram <command> [options]\n"
    "\n"
    "Turns the raw text a language model wrote into validated tool calls.\n"
    "\n"
    "commands:\n"
    "  parse        parse model output (a file, stdin, or JSONL) and print the result as JSON\n"
    "  stream       parse model output as it arrives, printing one JSON event a line\n"
    "  instruction  print the system-prompt text that teaches a model a profile's syntax\n"
    "  profiles     list the built-in profiles; --for-template FILE names the one a chat template writes\n"
    "  grammars     list the grammars profiles are made of\n"
    "  coverage     report how each model's outputs fare with each grammar (tables, heatmap, diff)\n"
    "\n"
    "Run 'toolgram <command> --help' for a command's options.\n"
    "\n"
    "exit codes: 0 done (no call found is not a failure), 2 usage error, 3 an input that cannot\n"
    "be read or used (missing, a directory, invalid, or longer than the limit below), 4 output\n"
    "that could not be written, 5 'profiles --for-template' found no single profile, 1 internal\n"
    "error.\n"
    "limits: model output (a file, stdin, a JSONL line) is read up to limits.max_input_bytes\n"
    "(16 MiB unless a profile file says otherwise) plus 1 MiB; a tools or profile file up to\n"
    "17 MiB; JSON nested deeper than 256 levels is refused.\n";

const char* parse_help =
    "usage: toolgram parse [FILE|-] [--profile NAME | --profile-file FILE] [--tools TOOLS.json] [--openai]\n"
    "       toolgram parse --jsonl FILE|- [--profile NAME | --profile-file FILE] [--tools TOOLS.json] [--jobs N]\n"
    "\n"
    "Reads model output from FILE (or stdin when FILE is '-' or absent) and prints one JSON\n"
    "object: {\"calls\":[…],\"content\":…,\"reasoning\":…,\"telemetry\":{…},\"error\":null|{…}}.\n"
    "\n"
    "options:\n"
    "  --profile NAME        grammars to use (default: auto); see 'toolgram profiles'\n"
    "  --profile-file FILE   a profile described in JSON, its syntax read at run time\n"
    "                        (docs/profile-files.md); an invalid file is an input error\n"
    "  --tools FILE          tools the model may call: OpenAI's tools array, or {name, parameters}\n"
    "                        objects. Without it any name is accepted and nothing is validated\n"
    "                        (stderr and each result's telemetry say so); an empty list, [], lets\n"
    "                        no tool be called.\n"
    "  --openai              print an OpenAI chat-completion assistant message instead\n"
    "  --jobs N              --jsonl: answer lines on N threads (default: every core); the output\n"
    "                        is the same, in input order. At most 4N lines and 64 MiB of them\n"
    "                        are in flight at once (a longer line alone)\n"
    "  --jsonl               input lines are {\"id\",\"text\",\"tools\"?,\"profile\"?,\"settings\"?}; prints\n"
    "                        one result per line with the same id, as each line is read. A line's\n"
    "                        settings (tool_required, accept_calls_in_reasoning, accept_healed_calls,\n"
    "                        tag_open, tag_close, fallback_max_bytes, intent_markers, reasoning_start,\n"
    "                        reasoning_format) apply to it after the flags. A bad or too long line\n"
    "                        gives an error object, not a stop.\n"
    "  --tool-required       the caller requires a tool call (satisfies the fallback intent gate)\n"
    "  --accept-reasoning-calls  accept calls written inside reasoning blocks\n"
    "  --refuse-healed       refuse a call whose closers the end of output cut off (healed\n"
    "                        calls are accepted by default and marked \"healed\": true)\n"
    "  --tag-open TEXT, --tag-close TEXT   the tag grammar's delimiters (not empty)\n"
    "  --fallback-max-bytes N  size gate for fallback candidates, 1 to 2^30 (default 2048)\n"
    "  --reasoning-start guess|inside|outside  whether the prompt opened reasoning (default:\n"
    "                        the profile's, which 'toolgram profiles' shows)\n"
    "  --reasoning-format separate|in_content  reasoning in \"reasoning\" (default), or kept in\n"
    "                        \"content\" as written, delimiters and all (llama.cpp's \"none\")\n"
    "  --pretty              indent the JSON output\n"
    "  --summary             print one line per result for people instead of JSON\n"
    "\n"
    "Input longer than limits.max_input_bytes plus 1 MiB is refused (exit 3); in a JSONL batch\n"
    "such a line gets an error object and is skipped. Exit codes: 0 done, 2 usage, 3 input,\n"
    "4 output lost (see 'toolgram --help').\n";

const char* stream_help =
    "usage: toolgram stream [FILE|-] [--profile NAME | --profile-file FILE] [--tools TOOLS.json] [--chunk N]\n"
    "\n"
    "Reads model output from FILE (or stdin, as it arrives) and prints one JSON event a line,\n"
    "as a streaming client consumes them:\n"
    "  {\"event\":\"content\",\"text\":…}            visible text (never tool syntax)\n"
    "  {\"event\":\"reasoning\",\"text\":…}          reasoning text\n"
    "  {\"event\":\"tool_call_begin\",\"index\":i,\"id\":…,\"name\":…}\n"
    "  {\"event\":\"tool_call_arguments\",\"index\":i,\"id\":…,\"text\":…}   more arguments JSON\n"
    "  {\"event\":\"tool_call_end\",\"index\":i,\"id\":…,\"accepted\":true|false,…}\n"
    "  {\"event\":\"format_error\",\"error\":{…}}\n"
    "and last {\"event\":\"end\",\"result\":{…}}, the result 'toolgram parse' prints for the\n"
    "whole text. Text deltas concatenate to the result's content and reasoning, and a call's\n"
    "argument deltas to its arguments JSON. A rejected call's index is taken by the next call.\n"
    "\n"
    "Input longer than limits.max_input_bytes plus 1 MiB ends the stream with an error on\n"
    "stderr and exit 3, after the events already printed, and with no \"end\" event.\n"
    "\n"
    "options:\n"
    "  --chunk N             feed at most N bytes at a time, 1 to 2^30 (default: what each read\n"
    "                        returns, at most 64 KiB; reads are never larger than 1 MiB)\n"
    "  --reasoning-start guess|inside|outside\n"
    "                        whether the prompt opened a reasoning block (default: the\n"
    "                        profile's, which 'toolgram profiles' shows; outside where its\n"
    "                        family's templates never open one, so text flows from the first\n"
    "                        token; guess holds it until a reasoning delimiter or the end tells)\n"
    "  --profile, --profile-file, --tools, --tool-required, --accept-reasoning-calls,\n"
    "  --refuse-healed, --tag-open, --tag-close, --fallback-max-bytes, --reasoning-format,\n"
    "  --pretty: as for 'toolgram parse'\n";

const char* profiles_help =
    "usage: toolgram profiles [--aliases | --formats | --model NAME | --for-template FILE]\n"
    "\n"
    "Lists the built-in profiles and their grammars; those toolgram ships as profile files\n"
    "(grammars/declared/NAME.json, compiled in) say so with their path.\n"
    "  --aliases            the serving engines' parser names (vLLM's, SGLang's and smg's\n"
    "                       --tool-call-parser, llama.cpp's chat formats), each with the profile\n"
    "                       --profile resolves it to\n"
    "  --formats            the formats reference in Markdown (docs/formats.md): each profile's models,\n"
    "                       engines' names, grammar files, and its syntax byte for byte\n"
    "  --model NAME         the profiles for a model (NAME found in a profile's models, its name, or\n"
    "                       an engine parser's name or models, ignoring case), with the files its\n"
    "                       grammars are written in. Exit codes: 0 found, 5 none ('unknown').\n"
    "  --for-template FILE  the profile whose markers a model's chat template writes, with the\n"
    "                       evidence (the markers found, their lines and branches, the engines'\n"
    "                       parser names). FILE is a Jinja template, or a tokenizer_config.json /\n"
    "                       chat_template.json holding one in \"chat_template\" (a string, or a list of\n"
    "                       {name, template}: \"tool_use\" is taken, then \"default\"); '-' reads stdin.\n"
    "                       The first line is 'profile: NAME', 'ambiguous: A B', 'not read yet: …'\n"
    "                       or 'unknown'. Exit codes: 0 a profile, 5 no single profile (unknown, not\n"
    "                       read yet or ambiguous), 3 a file that cannot be read or used (missing,\n"
    "                       empty, invalid JSON, no chat_template, nested deeper than 256 levels,\n"
    "                       longer than 17 MiB), 2 usage.\n";

const char* instruction_help =
    "usage: toolgram instruction [--profile NAME | --profile-file FILE] [--tools TOOLS.json]\n"
    "\n"
    "Prints the system-prompt text that tells a model how to write calls in the profile's\n"
    "primary syntax (the profile defaults to auto), followed\n"
    "by the tool list.\n";

// A file or stdin, whole, within `limit`. Pipes and FIFOs are fine (a model's output is
// often piped in); a directory is an input error, as is anything longer than the limit.
std::string read_input(const std::string& path, const toolgram::detail::ReadLimit& limit) {
    try {
        toolgram::detail::InputFile file(path, toolgram::detail::FileTypes::any_but_directory);
        return file.read_all(limit);
    } catch (const toolgram::detail::ReadError& e) {
        throw InputError(e.what());
    }
}

std::vector<toolgram::Tool> read_tools(const std::string& path) {
    toolgram::detail::DocumentRead doc = toolgram::detail::read_json_document(read_input(path, toolgram::detail::document_limit()));
    if (doc.error) throw InputError("tools file " + path + ": " + doc.error->message);
    const json j = std::move(doc.value);
    try {
        return toolgram::tools_from_json(j);
    } catch (const std::invalid_argument& e) {
        throw InputError("tools file " + path + ": " + e.what());
    }
}

// One line for people: the calls found, or why there was none.
std::string summary_line(const std::string& label, const toolgram::Result& r) {
    std::string line = label.empty() ? std::string() : label + ": ";
    const auto& t = r.telemetry;
    if (!r.calls.empty()) {
        for (std::size_t i = 0; i < r.calls.size(); ++i) {
            if (i) line += "; ";
            line += r.calls[i].name + " " + r.calls[i].arguments.dump(-1, ' ', false, json::error_handler_t::replace);
        }
        line += "  [" + std::string(toolgram::to_string(t.parse_mode)) + ", " + t.grammar + (t.healed ? ", healed" : "") + "]";
    } else {
        line += "no call";
        if (!t.rejected.empty()) line += " (" + t.rejected.front().reason + ")";
        else if (!t.saw_tool_syntax) line += " (no tool syntax)";
    }
    return line;
}

std::string dump(const json& j, bool pretty) {
    return j.dump(pretty ? 2 : -1, ' ', false, json::error_handler_t::replace);
}

// Prints `j` and a newline: compact output straight to stdout by the library's writer
// (the same bytes as dump; no second copy of a large content in memory), --pretty by dump.
void print_json(const json& j, bool pretty) {
    if (pretty) std::cout << dump(j, true);
    else toolgram::detail::write_compact_json(std::cout, j);
    std::cout << "\n";
}

// Prints a result as to_json's document, `wrap` (e.g. {"event": "end"}) around it under
// "result" when given. Compact output makes its strings valid UTF-8 as it writes them:
// to_json would copy a content holding invalid bytes beside the result (a fifth of them
// invalid made it 2.7 times the input at the peak). --pretty goes by to_json and dump.
void print_result(toolgram::Result&& r, bool pretty, json wrap = nullptr) {
    json doc = pretty ? toolgram::to_json(std::move(r)) : toolgram::detail::result_document(std::move(r));
    if (!wrap.is_null()) {
        wrap["result"] = std::move(doc);
        doc = std::move(wrap);
    }
    if (pretty) std::cout << dump(doc, true);
    else toolgram::detail::write_compact_json_made_valid(std::cout, doc);
    std::cout << "\n";
}

struct ParseOptions {
    std::string file;
    std::string profile = "auto";
    std::string profile_file;  // --profile-file: beats `profile`
    bool profile_given = false;
    std::string tools_path;
    bool openai = false;
    bool jsonl = false;
    bool pretty = false;
    bool summary = false;
    bool tool_required = false;
    bool accept_reasoning_calls = false;
    bool refuse_healed = false;
    std::optional<std::string> tag_open, tag_close;
    std::optional<std::size_t> fallback_max_bytes;
    std::optional<toolgram::ReasoningStart> reasoning_start;
    std::optional<toolgram::ReasoningFormat> reasoning_format;
    std::size_t chunk = 0;  // stream: feed this many bytes at a time (0: as they arrive)
    unsigned jobs = toolgram::cli::default_jobs();  // parse --jsonl: threads answering lines
};

// A tool whose schema cannot be used does not stop the run (its calls are refused, with the
// reason, in each result); people are told once per tool and problem, however many lines of
// a JSONL batch declare it.
void report_tool_problem(const toolgram::ToolProblem& p) {
    static std::set<std::pair<std::string, std::string>> reported;
    const std::string tool = toolgram::detail::excerpt(p.tool);
    if (reported.emplace(tool, p.message).second)
        std::cerr << "toolgram: tool \"" << tool << "\": its parameters schema cannot be used (" << p.message
                  << "); its calls will be refused\n";
}

void report_tool_problems(const toolgram::Parser& parser) {
    for (const auto& p : parser.tool_problems()) report_tool_problem(p);
}

// No tool list: names are taken as written and nothing is validated. Results say so in
// their telemetry ("validated": false); people are told once per run, on stderr, once a
// result was made (an input that could not be read gets its error alone).
using ToolList = std::optional<std::vector<toolgram::Tool>>;

void report_unvalidated() {
    static bool told = false;
    if (told) return;
    told = true;
    std::cerr << "toolgram: no --tools given: any tool name is accepted as written and no arguments are validated\n";
}

toolgram::Parser make_parser(toolgram::Profile profile, ToolList tools) {
    if (!tools) return toolgram::Parser(std::move(profile));
    return toolgram::Parser(std::move(profile), std::move(*tools));
}

// The profile file, read once per run (a JSONL batch would otherwise read it per line).
const toolgram::Profile& profile_from_file(const std::string& path) {
    static std::optional<std::pair<std::string, toolgram::Profile>> loaded;
    if (!loaded || loaded->first != path) {
        try {
            loaded.emplace(path, toolgram::load_profile_file(path));
        } catch (const std::invalid_argument& e) {
            throw InputError(std::string("profile file ") + e.what());
        }
    }
    return loaded->second;
}

// `name` is a built-in profile's; --profile-file, when given, names the profile instead.
// The setting flags apply to either, and only where given, so a profile file's own
// settings stay unless a flag says otherwise.
toolgram::Profile make_profile(const std::string& name, const ParseOptions& o, bool file_allowed = true) {
    toolgram::Profile p;
    if (!o.profile_file.empty() && file_allowed) {
        p = profile_from_file(o.profile_file);
    } else {
        try {
            p = toolgram::builtin_profile(name);
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
    }
    if (o.tool_required) p.settings.tool_required = true;
    if (o.accept_reasoning_calls) p.settings.accept_calls_in_reasoning = true;
    if (o.refuse_healed) p.settings.accept_healed_calls = false;
    if (o.tag_open) p.settings.tag_open = *o.tag_open;
    if (o.tag_close) p.settings.tag_close = *o.tag_close;
    if (o.fallback_max_bytes) p.settings.fallback_max_bytes = *o.fallback_max_bytes;
    if (o.reasoning_start) p.settings.reasoning_start = *o.reasoning_start;
    if (o.reasoning_format) p.settings.reasoning_format = *o.reasoning_format;
    return p;
}

void check_profile_choice(const ParseOptions& o) {
    if (o.profile_given && !o.profile_file.empty()) throw UsageError("--profile and --profile-file both name a profile: give one");
}

// The limits that bound reading: a profile file's, else the defaults (which every built-in
// profile keeps).
toolgram::Limits reading_limits(const ParseOptions& o) {
    return o.profile_file.empty() ? toolgram::Limits{} : profile_from_file(o.profile_file).settings.limits;
}

// A JSONL line to answer, and the answer: what to print (a result or an error object, or
// --summary's line) and the line's tools' problems, told by the thread that prints so each
// is told once.
struct JsonlLine {
    std::string text;
    std::size_t number = 0;
    bool too_long = false;
};
struct JsonlAnswer {
    json out;
    std::optional<std::string> summary;
    std::vector<toolgram::ToolProblem> tool_problems;
    bool unvalidated = false;  // parsed with no tool list
};

JsonlAnswer answer_line(const ParseOptions& o, const ToolList& default_tools, const JsonlLine& line,
                        const toolgram::detail::ReadLimit& limit) {
    const std::string line_no = "line " + std::to_string(line.number) + ": ";
    JsonlAnswer a;
    json id = nullptr;
    if (line.too_long) {
        a.out = {{"id", id},
                 {"error",
                  {{"message", line_no + "longer than " + std::to_string(limit.bytes) + " bytes (" + limit.why + "); skipped"}}}};
        return a;
    }
    try {
        const json in = toolgram::detail::parse_json_document(line.text);
        if (!in.is_object()) throw std::invalid_argument("line is not a JSON object");
        if (auto it = in.find("id"); it != in.end()) id = *it;
        auto text = in.find("text");
        if (text == in.end() || !text->is_string()) throw std::invalid_argument("line has no \"text\" string");
        ToolList tools = default_tools;
        // `"tools": null` fails the line (src/validation/record_tools.hpp says why).
        if (auto t = in.find("tools"); t != in.end()) tools = toolgram::detail::tools_of_record(*t);
        std::string profile = o.profile;
        const auto named = in.find("profile");
        const bool line_names_profile = named != in.end() && named->is_string();
        if (line_names_profile) profile = named->get<std::string>();
        toolgram::Profile line_profile = make_profile(profile, o, !line_names_profile);
        // The line's own settings, checked as coverage's inputs' are; an unknown or
        // ill-typed one fails the line with its error object.
        if (auto st = in.find("settings"); st != in.end()) toolgram::apply_input_settings(line_profile, *st);
        a.unvalidated = !tools;
        const toolgram::Parser parser = make_parser(std::move(line_profile), std::move(tools));
        a.tool_problems = parser.tool_problems();
        toolgram::Result r = parser.parse(text->get<std::string>());
        if (o.summary) {
            a.summary = summary_line(id.is_string() ? id.get<std::string>() : id.dump(), r);
        } else {
            a.out = o.openai ? toolgram::to_openai_message(r) : toolgram::to_json(std::move(r));
            a.out["id"] = id;
        }
    } catch (const std::exception& e) {
        a.out = {{"id", id}, {"error", {{"message", line_no + e.what()}}}};
        a.summary.reset();
    }
    return a;
}

// The most bytes of input lines `parse --jsonl --jobs N` holds in flight, whatever N
// (the help and README give it).
constexpr std::size_t jsonl_bytes_in_flight = std::size_t{64} << 20;

// One result a line, each written and flushed as soon as its line (and every line before
// it) is answered: a batch fed through a pipe gets its answers as it goes, and whatever
// happens later (a crash, a kill) cannot take back results already made. A line longer
// than the output limit gets its error object as soon as it passes the limit, and its rest
// is skipped unread. With --jobs N, N threads answer lines side by side (OrderedPool); the
// output is the same bytes, in the same order.
int run_jsonl(const ParseOptions& o, const ToolList& default_tools) {
    std::optional<toolgram::detail::InputFile> file;
    try {
        file.emplace(o.file, toolgram::detail::FileTypes::any_but_directory);
    } catch (const toolgram::detail::ReadError& e) {
        throw InputError(e.what());
    }
    // Read before any thread starts: the profile file is loaded here, once.
    const toolgram::detail::ReadLimit limit = toolgram::detail::output_limit(reading_limits(o));
    toolgram::detail::LineReader lines(*file, limit);
    auto emit = [&](JsonlAnswer& a) {
        for (const auto& p : a.tool_problems) report_tool_problem(p);
        if (a.summary) std::cout << *a.summary << "\n";
        else print_json(a.out, o.pretty);
        flush_stdout();
        if (a.unvalidated) report_unvalidated();
    };
    auto work = [&](JsonlLine& line) { return answer_line(o, default_tools, line, limit); };
    std::optional<toolgram::cli::OrderedPool<JsonlLine, JsonlAnswer>> pool;
    // Four lines in flight per thread, enough to keep each busy, and at most
    // jsonl_bytes_in_flight bytes of them (one longer line alone): lines may each be
    // 17 MiB, and a parse takes a few times its input, so a count alone let memory grow
    // with --jobs (1.9 GB at 16, 5.2 GB at 64 on the longest lines).
    if (o.jobs > 1)
        pool.emplace(o.jobs, std::size_t{4} * o.jobs, work, emit,
                     [](const JsonlLine& line) { return line.text.size(); }, jsonl_bytes_in_flight);
    for (;;) {
        JsonlLine line;
        toolgram::detail::LineReader::Status status;
        try {
            status = lines.next(line.text);
        } catch (const toolgram::detail::ReadError& e) {
            if (pool) pool->finish();  // the results so far are written first
            throw InputError(e.what());
        }
        if (status == toolgram::detail::LineReader::Status::end) break;
        line.number = lines.line_number();
        line.too_long = status == toolgram::detail::LineReader::Status::too_long;
        if (!line.too_long && line.text.find_first_not_of(" \t\r") == std::string::npos) continue;
        if (pool) {
            pool->submit(std::move(line));
        } else {
            JsonlAnswer a = work(line);
            emit(a);
        }
    }
    if (pool) pool->finish();
    return 0;
}

// Options that parse and stream share: which profile, which tools, which settings.
// Returns false when `args[i]` is not one of them.
bool common_option(const std::vector<std::string>& args, std::size_t& i, ParseOptions& o) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) -> std::string {
        if (i + 1 >= args.size()) throw UsageError(std::string(flag) + " needs a value");
        return args[++i];
    };
    if (a == "--profile") {
        o.profile = value("--profile");
        o.profile_given = true;
    } else if (a == "--profile-file") o.profile_file = value("--profile-file");
    else if (a == "--tools") o.tools_path = value("--tools");
    else if (a == "--openai") o.openai = true;
    else if (a == "--jsonl") o.jsonl = true;
    else if (a == "--pretty") o.pretty = true;
    else if (a == "--summary") o.summary = true;
    else if (a == "--tool-required") o.tool_required = true;
    else if (a == "--accept-reasoning-calls") o.accept_reasoning_calls = true;
    else if (a == "--refuse-healed") o.refuse_healed = true;
    else if (a == "--tag-open") o.tag_open = tag_option(a, value("--tag-open"));
    else if (a == "--tag-close") o.tag_close = tag_option(a, value("--tag-close"));
    else if (a == "--reasoning-start") {
        const std::string v = value("--reasoning-start");
        if (v == "guess") o.reasoning_start = toolgram::ReasoningStart::guess;
        else if (v == "inside") o.reasoning_start = toolgram::ReasoningStart::inside;
        else if (v == "outside") o.reasoning_start = toolgram::ReasoningStart::outside;
        else throw UsageError("--reasoning-start is guess, inside or outside, got \"" + v + "\"");
    } else if (a == "--reasoning-format") {
        const std::string v = value("--reasoning-format");
        if (v == "separate") o.reasoning_format = toolgram::ReasoningFormat::separate;
        else if (v == "in_content") o.reasoning_format = toolgram::ReasoningFormat::in_content;
        else throw UsageError("--reasoning-format is separate or in_content, got \"" + v + "\"");
    } else if (a == "--fallback-max-bytes") {
        o.fallback_max_bytes = count_option(a, value("--fallback-max-bytes"), 1, max_fallback_bytes);
    } else {
        return false;
    }
    return true;
}

int cmd_parse(const std::vector<std::string>& args) {
    ParseOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            std::cout << parse_help;
            return 0;
        } else if (a == "--jobs" || a == "-j") {
            if (i + 1 >= args.size()) throw UsageError("--jobs needs a value");
            const auto n = toolgram::cli::parse_jobs(args[++i]);
            if (!n) throw UsageError(toolgram::cli::jobs_refused(args[i]));
            o.jobs = *n;
        } else if (common_option(args, i, o)) {
        } else if (a.size() > 1 && a[0] == '-' && a != "-") throw UsageError("unknown option " + a + " (see toolgram parse --help)");
        else if (o.file.empty()) o.file = a;
        else throw UsageError("more than one input file given: " + o.file + " and " + a);
    }
    check_profile_choice(o);
    const ToolList tools = o.tools_path.empty() ? ToolList{} : ToolList{read_tools(o.tools_path)};
    if (o.jsonl) return run_jsonl(o, tools);
    std::optional<toolgram::Parser> parser;
    try {
        parser.emplace(make_parser(make_profile(o.profile, o), tools));
    } catch (const std::invalid_argument& e) {
        throw InputError(e.what());
    }
    report_tool_problems(*parser);
    // The profile first: its limits say how much of the input to read.
    std::string text = read_input(o.file, toolgram::detail::output_limit(parser->profile().settings.limits));
    toolgram::Result r = parser->parse(std::move(text));  // the input's buffer becomes the content
    if (o.summary) std::cout << summary_line("", r) << "\n";
    else if (o.openai) print_json(toolgram::to_openai_message(r), o.pretty);
    else print_result(std::move(r), o.pretty);
    flush_stdout();
    if (!tools) report_unvalidated();  // once the result it is said of was written
    return 0;
}

// Feeds the input to a StreamParser as it arrives (stdin is read with read(2), so a pipe's
// data is parsed as soon as it is written) and prints each event as a JSON line.
int cmd_stream(const std::vector<std::string>& args) {
    ParseOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            std::cout << stream_help;
            return 0;
        } else if (a == "--chunk") {
            if (i + 1 >= args.size()) throw UsageError("--chunk needs a value");
            o.chunk = count_option(a, args[++i], 1, max_chunk);
        } else if (a == "--openai" || a == "--jsonl" || a == "--summary") {
            throw UsageError(a + " is a parse option (see toolgram stream --help)");
        } else if (common_option(args, i, o)) {
        } else if (a.size() > 1 && a[0] == '-' && a != "-") throw UsageError("unknown option " + a + " (see toolgram stream --help)");
        else if (o.file.empty()) o.file = a;
        else throw UsageError("more than one input file given: " + o.file + " and " + a);
    }
    check_profile_choice(o);
    const ToolList tools = o.tools_path.empty() ? ToolList{} : ToolList{read_tools(o.tools_path)};
    std::optional<toolgram::Parser> parser;
    try {
        parser.emplace(make_parser(make_profile(o.profile, o), tools));
    } catch (const std::invalid_argument& e) {
        throw InputError(e.what());
    }
    report_tool_problems(*parser);
    std::optional<toolgram::detail::InputFile> file;
    try {
        file.emplace(o.file, toolgram::detail::FileTypes::any_but_directory);
    } catch (const toolgram::detail::ReadError& e) {
        throw InputError(e.what());
    }
    const toolgram::detail::ReadLimit limit = toolgram::detail::output_limit(parser->profile().settings.limits);
    toolgram::StreamParser stream(*parser);
    // Each event is printed as it is made (a chunk that decides the whole output, as a
    // guess settled at the end does, is never held whole in events), flushed per chunk.
    const toolgram::StreamParser::EventSink sink = [](toolgram::StreamEvent&& e) {
        print_json(toolgram::to_json(std::move(e)), false);
    };
    auto feed = [&](std::string_view chunk) {
        stream.feed(chunk, sink);
        flush_stdout();
    };
    // --chunk bounds each feed; a read is never larger than 1 MiB whatever it says.
    std::vector<char> buffer(o.chunk ? std::min(o.chunk, std::size_t{1} << 20) : 65536);
    std::size_t total = 0;
    for (;;) {
        std::size_t got = 0;
        try {
            got = file->read_some(buffer.data(), buffer.size());
        } catch (const toolgram::detail::ReadError& e) {
            throw InputError(e.what());  // after the events already printed, and no "end"
        }
        if (got == 0) break;
        if (got > limit.bytes - total) {
            // Everything up to the limit is streamed; then the stream ends without an
            // "end" event, as its result would not be the whole input's.
            feed(std::string_view(buffer.data(), limit.bytes - total));
            throw InputError("cannot read " + file->label() + ": longer than " + std::to_string(limit.bytes) + " bytes (" +
                             limit.why + "); the stream stopped there");
        }
        total += got;
        feed(std::string_view(buffer.data(), got));
    }
    toolgram::Result result = stream.finish(sink);
    json end = json::object();  // member by member into room made first, not to copy the result
    end.get_ref<json::object_t&>().reserve(2);
    end["event"] = "end";
    print_result(std::move(result), o.pretty, std::move(end));
    flush_stdout();
    if (!tools) report_unvalidated();  // once the result it is said of was written
    return 0;
}

int cmd_instruction(const std::vector<std::string>& args) {
    ParseOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            std::cout << instruction_help;
            return 0;
        } else if (a == "--profile" && i + 1 < args.size()) {
            o.profile = args[++i];
            o.profile_given = true;
        } else if (a == "--profile-file" && i + 1 < args.size()) o.profile_file = args[++i];
        else if (a == "--tools" && i + 1 < args.size()) o.tools_path = args[++i];
        else throw UsageError("unexpected argument " + a + " (see toolgram instruction --help)");
    }
    check_profile_choice(o);
    const auto tools = o.tools_path.empty() ? std::vector<toolgram::Tool>{} : read_tools(o.tools_path);
    std::cout << toolgram::format_instruction(make_profile(o.profile, o), tools);
    return 0;
}

const char* reasoning_start_name(toolgram::ReasoningStart start) {
    switch (start) {
        case toolgram::ReasoningStart::inside: return "inside";
        case toolgram::ReasoningStart::outside: return "outside";
        case toolgram::ReasoningStart::guess: break;
    }
    return "guess";
}

// A shipped profile file says so, with its path: the file to read, or to copy for a
// model of one's own. Each says where its output starts by default (reasoning_start).
int cmd_profiles() {
    const auto files = toolgram::declared_profile_files();
    for (const auto& name : toolgram::builtin_profile_names()) {
        const auto p = toolgram::builtin_profile(name);
        std::string grammars;
        for (const auto& g : p.grammars)
            grammars += (grammars.empty() ? "" : ", ") + g.grammar + (g.role == toolgram::Role::fallback ? " (fallback)" : "");
        std::cout << name << "\t" << p.description << "\n\tmodels: " << p.models
                  << "\n\treasoning_start: " << reasoning_start_name(p.settings.reasoning_start) << "\n\tgrammars: " << grammars
                  << "\n";
        for (const auto& f : files)
            if (f.name == name) std::cout << "\tdeclared: " << f.path << " (a profile file, compiled in)\n";
    }
    return 0;
}

// `profiles --model NAME`: which profile reads a model, and where its syntax is written
// (a newcomer's first question: which profile reads MiniMax-M1?). NAME is looked for,
// ignoring case, in each profile's name and models and in the engines' parser names and
// the models they list; `auto` only by its name (it reads every model).
int cmd_profiles_for_model(const std::string& model) {
    auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    const std::string needle = lower(model);
    auto has = [&](const std::string& hay) { return lower(hay).find(needle) != std::string::npos; };
    std::size_t found = 0;
    for (const auto& name : toolgram::builtin_profile_names()) {
        const auto p = toolgram::builtin_profile(name);
        std::vector<std::string> engines;
        for (const auto& a : toolgram::profile_aliases())
            if (a.profile == name && (has(a.name) || has(a.models))) engines.push_back(a.engine + " " + a.name);
        const bool by_models = name != "auto" && has(p.models);
        if (!has(name) && !by_models && engines.empty()) continue;
        ++found;
        std::string files;
        for (const auto& g : p.grammars)
            for (const auto& f : toolgram::detail::grammar_source_files(g.grammar))
                if (files.find(f) == std::string::npos) files += (files.empty() ? "" : ", ") + f;
        std::cout << name << "\t" << files << "\n\tmodels: " << p.models << "\n";
        if (!engines.empty()) {
            std::cout << "\tengines:";
            for (std::size_t i = 0; i < engines.size(); ++i) std::cout << (i ? ", " : " ") << engines[i];
            std::cout << "\n";
        }
    }
    if (found > 0) return 0;
    std::cout << "unknown\n  why: no profile, and no engine parser toolgram maps, names a model matching \"" << model
              << "\" (see 'toolgram profiles' and 'toolgram profiles --aliases')\n";
    return exit_no_profile;
}

// engine, the engine's name, the profile (or "-", not read yet), models: one line each, by
// tabs, so `cut` and `column -t -s $'\t'` take it as it is.
int cmd_profile_aliases() {
    std::cout << "engine\tname\tprofile\tmodels\n";
    for (const auto& a : toolgram::profile_aliases())
        std::cout << a.engine << "\t" << a.name << "\t" << (a.profile.empty() ? "-" : a.profile) << "\t" << a.models
                  << "\n";
    return 0;
}

// `profiles --for-template FILE`: the profile whose markers a chat template writes, with
// the evidence, for people. The first line is what a script reads: `profile: NAME`, or
// `unknown`, `not read yet: …`, `ambiguous: A B`; the exit code says the same (0 for a
// profile, exit_no_profile otherwise).
int cmd_profile_for_template(const std::string& path) {
    const std::string file = read_input(path, toolgram::detail::document_limit());
    const std::string label = path == "-" ? "stdin" : path;
    toolgram::ChatTemplateText source;
    try {
        auto ends_with = [&](const char* suffix) {
            const std::string s = suffix;
            return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
        };
        source = toolgram::chat_template_from_file(file, ends_with(".json") || ends_with(".JSON"));
    } catch (const std::invalid_argument& e) {
        throw InputError("chat template " + label + ": " + e.what());
    }
    const toolgram::TemplateMatch m = toolgram::match_chat_template(source.text);
    using Verdict = toolgram::TemplateMatch::Verdict;
    switch (m.verdict) {
        case Verdict::matched: std::cout << "profile: " << m.profile << "\n"; break;
        case Verdict::ambiguous: {
            std::cout << "ambiguous:";
            for (const auto& c : m.candidates) std::cout << " " << (c.profile.empty() ? "-" : c.profile);
            std::cout << "\n";
            break;
        }
        case Verdict::not_read_yet: std::cout << "not read yet: " << m.candidates.front().family << "\n"; break;
        case Verdict::unknown: std::cout << "unknown\n"; break;
    }
    std::cout << "  why: " << m.explanation << "\n";
    std::cout << "  template: " << (source.from == "the file" ? label : source.from + " of " + label) << "\n";
    const std::size_t shown = m.verdict == Verdict::matched ? 1 : m.candidates.size();
    for (std::size_t i = 0; i < m.candidates.size(); ++i) {
        const auto& c = m.candidates[i];
        const bool evidence = i < shown;
        std::cout << (evidence ? "  family: " : "  also fits, less specific: ") << c.family;
        if (!evidence) std::cout << " (" << (c.profile.empty() ? "not read yet" : c.profile) << ")";
        std::cout << "\n";
        if (!evidence) continue;
        if (!c.engines.empty()) {
            std::cout << "  engines:";
            for (std::size_t e = 0; e < c.engines.size(); ++e) std::cout << (e ? ", " : " ") << c.engines[e];
            std::cout << "\n";
        }
        for (const auto& f : c.found) {
            std::cout << "  found: " << f.marker << " at line " << f.line;
            if (!f.block.empty()) std::cout << (f.in_tool_call_branch ? ", in the tool-call branch " : ", in ") << f.block;
            std::cout << "\n";
        }
        if (!c.absent.empty()) {
            std::cout << "  not written:";
            for (std::size_t a = 0; a < c.absent.size(); ++a) std::cout << (a ? ", " : " ") << c.absent[a];
            std::cout << "\n";
        }
        if (!c.note.empty()) std::cout << "  note: " << c.note << "\n";
    }
    if (m.candidates.empty())
        for (const auto& f : m.seen) std::cout << "  saw: " << f.marker << " at line " << f.line << "\n";
    // Whether the output starts inside reasoning: what a stream needs told to send text from
    // the first token (llama.cpp's "thinking forced open").
    if (m.reasoning_opened) {
        const auto& r = *m.reasoning_opened;
        std::cout << "  reasoning: opened in the prompt (thinking forced open): " << r.marker << " at line " << r.line;
        if (!r.block.empty()) std::cout << ", in " << r.block;
        std::cout << "\n  reasoning_start: guess, or inside when that branch is taken (--reasoning-start)\n";
    } else {
        std::cout << "  reasoning: not opened in the prompt (no reasoning opener left open after "
                     "add_generation_prompt)\n  reasoning_start: outside (--reasoning-start outside)\n";
    }
    return m.verdict == Verdict::matched ? 0 : exit_no_profile;
}

int cmd_grammars() {
    for (const auto& g : toolgram::grammar_catalogue()) std::cout << g.name << "\t" << g.summary << "\n";
    return 0;
}

// The command, with each kind of error turned into its exit code and message.
int run(const std::string& command, std::vector<std::string>& args) {
    try {
        if (command == "parse") return cmd_parse(args);
        if (command == "stream") return cmd_stream(args);
        if (command == "instruction") return cmd_instruction(args);
        if (command == "coverage") return toolgram::cli::coverage_command(args);
        const bool wants_help = !args.empty() && (args[0] == "--help" || args[0] == "-h");
        if (command == "profiles") {
            if (wants_help)
                std::cout << profiles_help;
            else if (args.size() == 1 && args[0] == "--aliases") return cmd_profile_aliases();
            else if (args.size() == 1 && args[0] == "--formats") return toolgram::cli::formats_reference();
            else if (args.size() == 2 && args[0] == "--model" && !args[1].empty()) return cmd_profiles_for_model(args[1]);
            else if (!args.empty() && args[0] == "--model") throw UsageError("--model needs one NAME (part of a model's name)");
            else if (args.size() == 2 && args[0] == "--for-template") return cmd_profile_for_template(args[1]);
            else if (!args.empty() && args[0] == "--for-template") throw UsageError("--for-template needs one FILE (or - for stdin)");
            else if (!args.empty())
                throw UsageError("profiles takes no arguments but --aliases, --formats, --model NAME or --for-template FILE");
            return wants_help ? 0 : cmd_profiles();
        }
        if (command == "grammars") {
            if (wants_help) std::cout << "usage: toolgram grammars\n\nLists the grammars that profiles are made of.\n";
            else if (!args.empty()) throw UsageError("grammars takes no arguments");
            return wants_help ? 0 : cmd_grammars();
        }
        throw UsageError("unknown command \"" + command + "\"");
    } catch (const UsageError& e) {
        std::cerr << "toolgram: " << e.what() << "\n";
        return exit_usage;
    } catch (const InputError& e) {
        std::cerr << "toolgram: " << e.what() << "\n";
        return exit_input;
    } catch (const OutputError& e) {
        std::cerr << "toolgram: " << e.what() << "\n";
        return exit_output;
    } catch (const std::exception& e) {
        std::cerr << "toolgram: internal error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace

int main(int argc, char** argv) {
    // Buffers of a megabyte or more are mapped on their own and go back to the system when
    // freed. glibc would otherwise raise this threshold to the size of each large buffer
    // freed, and serve the next ones from its heap, where the input freed after a parse
    // or a stream still counts against the memory the output then needs.
    ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
    std::ios::sync_with_stdio(false);
    std::cout.rdbuf(&stdout_buffer());
    std::vector<std::string> args(argv + 1, argv + argc);
    int code = 0;
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << main_help;
        code = args.empty() ? exit_usage : 0;
    } else {
        const std::string command = args[0];
        args.erase(args.begin());
        code = run(command, args);
    }
    if (code == exit_output) return code;
    // Whatever the command returned, output that did not reach its file is a failure of
    // its own: the last buffered bytes, and the close that may report a delayed error.
    try {
        flush_stdout();
        if (::close(STDOUT_FILENO) != 0 && errno != EBADF)
            throw OutputError(std::string("cannot write the output: ") + std::strerror(errno));
    } catch (const OutputError& e) {
        std::cerr << "toolgram: " << e.what() << "\n";
        return exit_output;
    }
    return code;
}
