// toolgram's public API: build a Parser once from a profile and a tool list, then
// turn raw model output into validated tool calls with `parse`.
//
// This header is the whole contract with users. It names things in the field's words
// (profile, grammar, candidate, call, gate) and exposes no PEGTL: grammars live behind
// src/, so users need only this header and nlohmann/json. Results are values; parsing
// never throws on bad model output (bad *configuration*, such as an unknown profile or
// an invalid tool schema, throws std::invalid_argument when the Parser is built).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace toolgram {

using json = nlohmann::ordered_json;

// ---------------------------------------------------------------------------------------
// Tools: what the model may call.

struct Tool {
    std::string name;
    std::string description;
    json parameters = json::object();  // a JSON Schema for the arguments object
};

// Reads OpenAI's tools array (`[{"type":"function","function":{…}}]`), bare
// `{name, description?, parameters?}` objects, or one such object.
// Throws std::invalid_argument naming the offending entry.
[[nodiscard]] std::vector<Tool> tools_from_json(const json& tools);

// ---------------------------------------------------------------------------------------
// Profiles: which grammars run, in what order, and how forgiving the parser may be.

enum class Role : std::uint8_t { primary, fallback };

// Hostile-input limits. Hitting one rejects the candidate (or skips the rest of the
// input) with the limit named in telemetry; nothing throws and nothing else is lost.
struct Limits {
    // The deepest max_depth there is: a Parser asked for more (or for 0) throws
    // std::invalid_argument, a profile file asking for more is refused. Every grammar
    // recurses once per level of nesting, and so do copying, dumping and validating the
    // value read, so the limit is what keeps hostile nesting off the end of the stack. At
    // the ceiling a parse fits a 256 KiB thread stack in an optimised build with over 3x
    // to spare (at most 352 bytes a level, 528 with a schema that refers to itself once a
    // level; tests/bench/stack_depth.cpp measures them); -O0 builds need about 1.7 KiB a
    // level, AddressSanitizer up to 6 KiB (README, "Hostile input").
    static constexpr std::size_t max_depth_ceiling = 128;
    std::size_t max_depth = 64;                     // bracket / element nesting in any grammar
    std::size_t max_candidate_bytes = 1u << 20;     // one call's source text
    std::size_t max_candidates = 1024;              // per parse
    std::size_t max_input_bytes = 16u << 20;        // whole input; the rest is content only
};

// An opening and a closing delimiter, such as a reasoning block's.
struct Delimiters {
    std::string open;
    std::string close;
    // The prompt may have opened the block, so a closer seen before any opener means the
    // output started inside it (R1's `</think>`). False for a closer that also ends other
    // blocks (gpt-oss's `<|end|>` ends every message), where that reading would be wrong.
    bool implicit_open = true;
};

// Whether the output starts inside a reasoning block because the prompt opened it (chat
// templates of thinking models often end with `<think>`).
enum class ReasoningStart {
    guess,    // from the output: a closer seen before any opener means it did. A stream
              // holds text back until it can tell (an opener or a closer appears).
    inside,   // it did: reasoning runs from the first byte to the first closer
    outside,  // it did not: a closer before any opener is plain text
};

// A tool-call syntax declared at run time instead of compiled in: what a profile file's
// "syntax" says (docs/profile-files.md), read by the grammar `declared` with the same
// building blocks as the built-in families. Every token is a list of spellings: all are
// read, the first is the one written (render, instructions). Check one built by hand with
// check_declared_syntax; profile_from_json checks what it loads.
//
//   [section.open]  call.open HEADER ARGUMENTS [call.close]  …  [section.close]
//
// HEADER names the call (absent: the JSON payload names it, {"name": …, "arguments": …});
// ARGUMENTS are a JSON object, named text parameters or key-value pairs (typed later from
// the schema), or, with no header, Python calls that name themselves.
struct DeclaredSyntax {
    // Which bytes a name, an id or a key may hold: every byte but `stop_chars`, or only
    // `chars` (ASCII; ranges such as "a-z"), the first one from `first_chars` if given.
    struct Chars {
        std::string stop_chars;
        std::string chars;
        std::string first_chars;
    };
    // Where whitespace may stand between the header's tokens.
    enum class Space {
        any,         // spaces, tabs and line breaks
        blanks,      // spaces and tabs
        none,        // nothing (a name may still hold blanks, which are trimmed)
        line_break,  // at most one line break (GLM's name on the line after the opener)
    };
    // A section groups calls: <|tool_calls_section_begin|> … <|tool_calls_section_end|>.
    struct Section {
        std::vector<std::string> open, close;
        bool required = false;  // false: calls may also stand bare, without a section
    };
    struct Call {
        std::vector<std::string> open;
        std::vector<std::string> close;  // empty: the arguments end the call (Mistral)
        bool open_optional = false;      // inside a section a call may leave out its opener
        // JSON arguments: the payload ends the call, and `close` straight after it is the
        // call's too, when written (granite-20b-functioncalling's `</function_call>`).
        bool close_optional = false;
    };
    struct Name {
        std::vector<std::string> prefix;  // a namespace written before the name, not part of it
        Chars chars;
        std::string attribute;  // non-empty: the name is this attribute of the opening tag
    };
    struct Id {
        std::vector<std::string> after_name;  // NAME:0 — the separator before an index
        std::vector<std::string> marker;      // NAME[CALL_ID]ID — the token before the id
        Chars chars;
        // The id is the whole call reference (prefix, name, separator, index), as Kimi's
        // `functions.get_weather:0`; otherwise the id's own text.
        bool whole_reference = false;
    };
    struct Header {
        // The header may be left out: the payload then holds call objects (Mistral's old
        // `[TOOL_CALLS] [{"name": …}]`). JSON arguments only.
        bool optional = false;
        Space space = Space::any;
        Name name;
        std::optional<Id> id;
        // The token that ends the header: [ARGS], <|tool_call_argument_begin|>, `>`. Empty
        // (parameters only): the name ends where its characters do, and a parameter, the
        // call's closer or the end of output must follow.
        std::vector<std::string> end;
    };
    enum class Style {
        json,        // a JSON object (or, with no header, call objects naming themselves)
        parameters,  // named text parameters, typed from the schema
        key_value,   // KEY KEY_END value SEPARATOR …: parameters with no opener of their own
        pythonic,    // Python calls between the call markers: [NAME(k='v'), …] or one a line
    };
    // A named text parameter: OPEN KEY KEY_END [VALUE_OPEN] value CLOSE, or with the key as
    // an attribute of the opening tag: <parameter name="KEY">value</parameter>. A value
    // ends at its closer, or, where that was left out, at the next parameter or the
    // call's closer. For key_value, `open` is empty and `close` is the separator after a
    // value (`city=Paris; days=3`).
    // What a tagged value's line breaks are: one on each side is layout (Qwen3-Coder's
    // template writes `<parameter=K>\nV\n</parameter>`), or every one is the value's (the
    // templates that write values verbatim: GLM, MiniMax, Seed-OSS, DeepSeek), or every
    // blank and line break around the value is layout (engines that strip values, as dots-3's do).
    enum class Newlines { layout, kept, stripped };
    struct Parameter {
        std::vector<std::string> open;
        std::vector<std::string> key_end;
        std::string key_attribute;
        std::vector<std::string> value_open;
        std::vector<std::string> close;
        Chars key;
        Newlines newlines = Newlines::layout;
    };
    struct Arguments {
        Style style = Style::json;
        Parameter parameter;  // style parameters or key_value
        // After a call opens, anything but parameters before its closer: a rejected call
        // (true), or not a call of this syntax at all (false: the opener is shared).
        bool reject_unexpected = false;
        // JSON arguments with no header: call objects written one a line (MiniMax-M1's
        // `<tool_calls>` form). A line that breaks spoils only itself: the call reads on
        // at the next line opening a value in its first column, and a list may stand on
        // a line too.
        bool one_a_line = false;
        // JSON arguments: the payload must open a call object (`{`, or `[` then `{`), and
        // anything else after the opener is not this syntax's, as where another syntax
        // shares the markers (LFM2 writes its Python mode between its JSON mode's).
        bool object_first = false;
    };
    // How render_calls writes calls where a family's layout is not the plain one (the
    // first spelling of each token, one block a call, nothing between): JSON call objects
    // with no header only. One of `each` (a block a call, "{call}" standing for the call
    // object) or `all` (one block, "{calls}" standing for the call objects, ", " between).
    struct Render {
        std::string each;
        std::string all;
        std::string between;                      // between the blocks `each` writes
        std::string arguments_key = "arguments";  // the call object's key for the arguments
    };

    std::optional<Section> section;
    Call call;
    std::optional<Header> header;  // absent: the JSON payload names the call
    Arguments arguments;
    // Free text for format_instruction and correction prompts; empty: one is written
    // from an example call rendered in this syntax.
    std::string instruction;
    std::optional<Render> render;  // absent: the plain layout
    // Spans that are tool syntax even when nothing in them reads (an opener standing on
    // its line, up to `close`): a rejected candidate with the reason, not prose. The
    // section's and the call's own openers and closers count already; these add where a
    // call has no closer to look for (granite-20b-functioncalling: to the line's end).
    struct Block {
        std::string open, close;
    };
    std::vector<Block> blocks;
};

// Where the text of reasoning blocks goes.
enum class ReasoningFormat {
    separate,    // into `reasoning`, and out of `content` (the default)
    in_content,  // left in `content` where it stands, delimiters and all, and `reasoning`
                 // stays empty: llama.cpp's `reasoning_format: none`. Blocks are still
                 // found, so a call inside one is judged as written inside reasoning.
};

// The longest marker a profile file, a JSONL line's or a coverage record's settings, the
// Python package's settings or the CLI's --tag-open/--tag-close may give (a syntax token,
// a reasoning delimiter, a tag, a content or intent marker), in bytes: longer ones are
// refused where they are read, naming the field. Real markers are a few dozen bytes; the
// searches stay linear in the text for any length (settings built in code are not
// checked), and the bound keeps what each match compares small.
inline constexpr std::size_t max_marker_bytes = 256;

struct Settings {
    // The tag grammar's delimiters, configurable at run time.
    std::string tag_open = "[TOOL_CALL]";
    std::string tag_close = "[/TOOL_CALL]";
    // Fallback gate "intent shown": one of these must occur in the output, or the
    // caller must say a tool call is required.
    std::vector<std::string> intent_markers = {"need_tool: yes", "CALL_TOOL"};
    bool tool_required = false;
    // Fallback gate "candidate small": a fallback candidate's source text at most this long.
    std::size_t fallback_max_bytes = 2048;
    // Reasoning blocks: their text goes to `reasoning`. An output that shows a closing
    // delimiter before any opening one started inside reasoning (R1 style).
    std::vector<Delimiters> reasoning = {
        {"<think>", "</think>"},
        {"[THINK]", "[/THINK]"},
        {"<seed:think>", "</seed:think>"},
        {"<|START_THINKING|>", "<|END_THINKING|>"},
    };
    // Serving engines know this from the chat template; telling it lets a stream send
    // reasoning and content from the first token instead of waiting to tell them apart.
    // builtin_profile gives each family's: outside where its chat templates never open
    // reasoning in the prompt (`toolgram profiles` shows which), guess elsewhere, as here.
    ReasoningStart reasoning_start = ReasoningStart::guess;
    // Reasoning separated from the content, or kept in it as the model wrote it.
    ReasoningFormat reasoning_format = ReasoningFormat::separate;
    // Calls written inside a reasoning block are reported; accepted only when true.
    bool accept_calls_in_reasoning = false;
    // An output cut off (max_tokens) with every value of a call complete and only closers
    // missing is healed: the closers are supplied and the call is accepted, marked
    // `Call::healed`. False: such a call is refused with a reason instead. (A call cut
    // inside a value, or after a ',' that promised more, is refused either way.)
    bool accept_healed_calls = true;
    // An unclosed reasoning block ends where the first tool call begins when nothing but
    // calls follows it (Kimi K2 writes calls after reasoning with no closing tag);
    // otherwise it runs to the end.
    bool reasoning_ends_at_call = false;
    // Tokens that frame the answer (<|START_RESPONSE|>, <|python_tag|>, …): removed from
    // content wherever they stand outside tool syntax.
    std::vector<std::string> content_markers;
    Limits limits;
    // The syntax the grammar `declared` reads (a profile file's); shared, never changed.
    std::shared_ptr<const DeclaredSyntax> declared_syntax;
};

struct GrammarUse {
    std::string grammar;  // a name from grammar_catalogue()
    Role role = Role::primary;
};

struct Profile {
    std::string name;
    std::string description;
    std::string models;  // the models this profile serves, for people
    std::vector<GrammarUse> grammars;  // primary grammars first, then fallbacks, in order
    Settings settings;
    // False when the syntax has no marker of its own (a bare JSON array, a bare Python
    // call): `auto` then reaches it only through its gated fallbacks.
    bool distinctive = true;
};

// The built-in profiles by name, or by a serving engine's name for the same syntax (see
// profile_aliases: `qwen3_xml`, `deepseekv31`, `openai`, "Hermes 2 Pro"); the profile
// returned keeps its own name. Throws std::invalid_argument listing the known names, or,
// for an engine's parser whose syntax toolgram does not read yet, saying so.
// Built in are the compiled-in profiles and, after them, the profile files toolgram ships
// (grammars/declared/NAME.json, compiled into the library; see declared_profile_files).
[[nodiscard]] Profile builtin_profile(std::string_view name);
// `auto`, the generic formats, the model families, then the shipped profile files.
[[nodiscard]] std::vector<std::string> builtin_profile_names();

// A profile toolgram ships as a profile file (docs/profile-files.md): the grammar
// `declared` reads its syntax. The file's text is compiled in, so builtin_profile(name)
// loads it (checked as load_profile_file checks a file) with no path; `path` is where it
// lives in the source tree, the place to copy one from.
struct DeclaredProfileFile {
    std::string name;  // the profile's name, the file's stem
    std::string path;  // grammars/declared/NAME.json
    std::string text;  // the file as shipped
};
[[nodiscard]] std::vector<DeclaredProfileFile> declared_profile_files();

// A name a serving engine gives a tool-call parser: vLLM's and SGLang's
// `--tool-call-parser NAME`, and the chat format llama.cpp names in its log.
struct ProfileAlias {
    std::string engine;   // "vLLM", "SGLang", "llama.cpp"
    std::string name;     // spelled as the engine spells it
    std::string profile;  // the toolgram profile reading that syntax; empty: not read yet
    std::string models;
};
const std::vector<ProfileAlias>& profile_aliases();
// Every grammar toolgram knows, with a one-line summary each.
struct GrammarInfo {
    std::string name;
    std::string summary;
};
[[nodiscard]] std::vector<GrammarInfo> grammar_catalogue();

// Profile files: a profile described in JSON (docs/profile-files.md), whose primary
// grammar is `declared`, reading the file's syntax. Every field is checked: an unknown
// field, a wrong type, a missing or empty marker, an ambiguous syntax throw
// std::invalid_argument whose message names the field (`syntax.call.close[0]: …`).
[[nodiscard]] Profile profile_from_json(const json& file);
// Reads and checks a profile file; errors start with the path. A key given twice in one
// object is an error too.
[[nodiscard]] Profile load_profile_file(const std::string& path);
// The checks profile_from_json makes on a syntax, for one built in code. Throws
// std::invalid_argument naming the field (in the file's terms: `syntax.header.end`).
void check_declared_syntax(const DeclaredSyntax& syntax);

// ---------------------------------------------------------------------------------------
// Results.

struct Call {
    std::string id;
    std::string name;  // the declared tool's name, after normalisation
    json arguments = json::object();
    // The output was cut off where the call's closers were due, and they were supplied
    // (Settings::accept_healed_calls). Its arguments are complete as written, but the
    // model may have meant more calls; `to_json` and `to_openai_message` show it.
    bool healed = false;
};

// What the schema said of a candidate's arguments: skipped (no tool list, or no tool to
// hold them to), pass or fail.
enum class SchemaVerdict { skipped, pass, fail };
// Which kind of grammar made a result's calls: a primary grammar, a gated fallback, or
// none (no call was made).
enum class ParseMode { none, primary, fallback };
// Why a candidate made no call, or why a stretch of the output was not judged: what a
// client switches on. The `reason` beside it is prose with the particulars (which tool,
// which key, which limit) and may change wording; the code does not.
enum class RejectionCode {
    none,                 // accepted
    no_intent,            // fallback gate: no intent shown and no call required
    echo,                 // a call repeated from the conversation's history
    too_large,            // the candidate is past Limits::max_candidate_bytes
    malformed,            // the grammar could not read the syntax as a call
    unfinished,           // the call was left unfinished
    repeated_key,         // a key given twice (or twice once invalid UTF-8 is replaced)
    example,              // shown as an example, not a call
    in_reasoning,         // inside reasoning, and Settings::accept_calls_in_reasoning is off
    fallback_too_large,   // fallback gate: past Settings::fallback_max_bytes
    fallback_no_tools,    // fallback gate: no tool list to check the name against
    fallback_not_single,  // fallback gate: more than one fallback candidate
    healed,               // cut off and healed, and Settings::accept_healed_calls is off
    no_tools,             // the tool list is empty: no call may be made
    unknown_tool,         // the name matches no tool
    ambiguous_tool,       // the name matches more than one tool
    empty_name,           // no tool name (and no tool list)
    bad_arguments,        // the arguments are not an object, or hold keys beside them
    wrapped_arguments,    // the arguments sit under a key the tool does not declare
    ambiguous_number,     // a number with leading zeros the schema cannot settle
    too_deep,             // nesting past Limits::max_depth
    unusable_schema,      // the tool's schema cannot be used
    schema_mismatch,      // the arguments fail the tool's schema
    input_limit,          // (a stretch) past Limits::max_input_bytes: not scanned
    candidate_limit,      // (a stretch) past Limits::max_candidates: not judged
    // A call a stream announced and then withdrew (StreamEvent::rejection_code), beside
    // the codes above:
    not_a_call,           // what looked like a call's start is not one
    changed,              // the call as finally read differs from what was sent: sent again whole
    incomplete,           // the output ended before the call was complete
};
// Their names, as the result's JSON writes them ("skipped", "pass", "fail"; "none",
// "primary", "fallback"; "unknown_tool", …: the enumerator's name): the codes a client
// reads, never prose.
[[nodiscard]] std::string_view to_string(SchemaVerdict verdict);
[[nodiscard]] std::string_view to_string(ParseMode mode);
[[nodiscard]] std::string_view to_string(RejectionCode code);

// What phase two decided about one candidate.
struct CandidateReport {
    std::string grammar;
    Role role = Role::primary;
    std::size_t begin = 0, end = 0;      // byte span in the input
    std::string raw_name;                // as the model wrote it
    std::string name;                    // resolved tool name, empty when unresolved
    std::vector<std::string> repairs;    // lenient-JSON and normalisation repairs
    bool healed = false;                 // truncation healed (closers supplied)
    SchemaVerdict schema = SchemaVerdict::skipped;
    std::string schema_reason;           // why it failed (or was skipped)
    bool accepted = false;
    RejectionCode code = RejectionCode::none;  // why it was rejected, as a code
    std::string reason;                  // why it was rejected, empty when accepted
};

// A candidate (or a stretch of the input) that made no call, and why. Its span and the
// text there are what the model wrote: a refused block leaves the content, so this is
// where a client finds what to show (or send back) in its place. What it quotes is
// bounded, so a result never holds the input many times over: `name` (as the model wrote
// it) and the names in `reason` are cut to 100 bytes ("..." after them), and `text` holds
// at most max_text_bytes, the span's first bytes cut at a character boundary; a longer
// span's text is in the input at [begin, end).
struct Rejection {
    static constexpr std::size_t max_text_bytes = 64 * 1024;
    std::string name;
    std::string grammar;
    std::string reason;
    std::size_t begin = 0, end = 0;  // byte span in the input
    std::string text;                // the input in that span, at most max_text_bytes of it
    RejectionCode code = RejectionCode::none;
};

struct Telemetry {
    ParseMode parse_mode = ParseMode::none;
    std::string grammar;              // the grammar that produced the calls
    bool fallback_used = false;
    std::size_t candidate_count = 0;
    std::vector<std::string> repairs;  // union over accepted calls, in order seen
    bool healed = false;
    bool saw_tool_syntax = false;
    // False when the Parser has no tool list: names were taken as written and no
    // arguments were checked against a schema.
    bool validated = true;
    std::vector<CandidateReport> candidates;  // one per candidate, in input order
    std::vector<Rejection> rejected;
};

// Malformed tool syntax that yielded no call: what, where, what was expected, and a
// ready message to send back to the model on its next turn.
struct FormatError {
    std::string message;
    std::size_t offset = 0;
    std::size_t line = 1, column = 1;
    std::string expected;
    std::string correction_prompt;
};

struct Result {
    std::vector<Call> calls;
    std::string content;    // text outside tool syntax and reasoning
    std::string reasoning;  // text of reasoning blocks
    Telemetry telemetry;
    std::optional<FormatError> error;
};

// `{"calls":[…],"content":…,"reasoning":…,"telemetry":{…},"error":null|{…}}`
// Content and reasoning keep the model's bytes; in the JSON any invalid UTF-8 among them
// becomes U+FFFD, so `to_json(r).dump()` never throws. A call's arguments and id are
// valid UTF-8 already (repair `invalid_utf8_replaced`).
[[nodiscard]] json to_json(const Result& result);
// The same, taking the result's content, reasoning and arguments rather than copying them
// (a result with megabytes of content is then not held twice).
[[nodiscard]] json to_json(Result&& result);
// An OpenAI chat-completion assistant message: tool_calls with arguments as a JSON string.
[[nodiscard]] json to_openai_message(const Result& result);

// ---------------------------------------------------------------------------------------
// The parser.

// A tool whose parameters schema cannot be used: a keyword with an invalid value
// (`"type": "float"`, `"multipleOf": 0`), a `$ref` cycle or a reference outside the schema,
// a pattern RE2 cannot run (a backreference, lookaround). Its calls are refused with this
// message; the other tools are not affected.
struct ToolProblem {
    std::string tool;
    std::string message;  // the JSON pointer and what is wrong: "#/properties/day/pattern: …"
};

// Thread safety: a Parser is immutable once built, and its const members may be called
// from any number of threads at once (share one per profile and tool list).
class Parser {
public:
    // With no tool list, any tool name is accepted as written and no arguments are
    // validated; every result says so (Telemetry::validated is false). Use it to see what
    // a model writes, not to act on it.
    explicit Parser(Profile profile);
    // With a tool list, even an empty one, only its tools may be called: with none
    // declared, every call is refused ("no tool may be called: the tool list is empty").
    // Compiles every tool's schema once (toolgram's own JSON Schema validator, src/validation/schema/).
    // Throws std::invalid_argument on an unknown grammar in the profile, a limits.max_depth
    // of 0 or above Limits::max_depth_ceiling, a tool with no name or a name declared twice.
    // A schema that cannot be used does not throw: see tool_problems().
    Parser(Profile profile, std::vector<Tool> tools);
    ~Parser();
    Parser(Parser&&) noexcept;
    Parser& operator=(Parser&&) noexcept;

    // Never throws on any input: malformed syntax is a rejection or a format_error.
    [[nodiscard]] Result parse(std::string_view text) const;
    // The same, taking the text: its buffer becomes the result's content, assembled over
    // it, so a long output is not held twice (parse, then drop the text, holds both at
    // once). The string is left empty, or holding what was not needed.
    [[nodiscard]] Result parse(std::string&& text) const;
    [[nodiscard]] Result parse(const char* text) const;  // a literal is a string_view, not a string to take

    const Profile& profile() const;
    const std::vector<Tool>& tools() const;
    // Whether the Parser was given a tool list (possibly empty).
    bool has_tool_list() const;
    // The tools whose schema cannot be used, found when the Parser was built; their calls
    // are refused with the message. Empty when every schema compiled.
    const std::vector<ToolProblem>& tool_problems() const;

private:
    friend class StreamParser;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// ---------------------------------------------------------------------------------------
// Streaming.

// One thing a stream tells its client. Deltas concatenate: the content deltas to the final
// `content`, the reasoning deltas to `reasoning`, a call's argument deltas to its final
// arguments JSON (as `to_openai_message` writes them).
struct StreamEvent {
    enum class Kind {
        content,         // visible text, never part of tool syntax
        reasoning,       // text of reasoning blocks
        call_begin,      // a call's name is complete and allowed: index, id, name
        call_arguments,  // more of the call's arguments JSON
        call_end,        // the call is validated (`call`) or rejected (`rejection`)
        format_error,    // at the end: tool syntax that yielded no call, with a correction prompt
    };
    Kind kind = Kind::content;
    std::string text;   // content, reasoning, call_arguments
    // Call events: the call's place in the result's calls. A rejected call's place is
    // taken by the next call, so a client drops what it showed for it.
    std::size_t index = 0;
    std::string id;     // call events
    std::string name;   // call events
    std::optional<Call> call;        // call_end, accepted
    std::string rejection;           // call_end, rejected: why
    RejectionCode rejection_code = RejectionCode::none;  // the same, as a code
    std::optional<FormatError> error;  // format_error
};

// `{"event":"content","text":…}`, `{"event":"tool_call_begin","index":0,"id":…,"name":…}`, …
[[nodiscard]] json to_json(const StreamEvent& event);
// The same, taking the event's text and arguments rather than copying them.
[[nodiscard]] json to_json(StreamEvent&& event);

// Parses output as it arrives. Built from a Parser (which must outlive it); `feed` takes
// chunks of any size, cut anywhere (inside a marker, inside a UTF-8 character), and
// returns what became certain; `finish` returns the last events and the result, which is
// exactly `parser.parse(all the text)`.
//
// Text that might still turn out to be tool syntax is held back until it is decided: at
// most a marker's length, or a block until its grammar can read it (see the README for
// the few cases that wait longer, such as Settings::reasoning_start left at guess).
// Each byte is examined a bounded number of times, so a chunk costs what its own bytes
// cost, however long the message already is. Dropping a stream mid-call reports nothing
// as complete; nothing runs in the background.
//
// Thread safety: a StreamParser is one stream; use it from one thread at a time. Streams
// on different threads may share one Parser.
class StreamParser {
public:
    explicit StreamParser(const Parser& parser);
    ~StreamParser();
    StreamParser(StreamParser&&) noexcept;
    StreamParser& operator=(StreamParser&&) noexcept;

    // Never throws on any input; throws std::logic_error when called after finish().
    [[nodiscard]] std::vector<StreamEvent> feed(std::string_view chunk);

    struct Finished {
        std::vector<StreamEvent> events;
        Result result;
    };
    [[nodiscard]] Finished finish();

    // The same, handing each event to `sink` as soon as it is complete instead of returning
    // them together: a chunk that decides much text at once (a stream left to guess
    // whether the output began inside reasoning decides all of it at the end) is then
    // never held whole in events. The events, their order and the result are those of
    // the calls above. An exception the sink throws leaves feed or finish (the events
    // after it are lost; the stream takes no more text, as after finish). The sink must
    // not call back into this stream.
    using EventSink = std::function<void(StreamEvent&&)>;
    void feed(std::string_view chunk, const EventSink& sink);
    [[nodiscard]] Result finish(const EventSink& sink);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The system-prompt text that teaches a model to write calls in the profile's primary
// syntax, listing the tools.
[[nodiscard]] std::string format_instruction(const Profile& profile, const std::vector<Tool>& tools);

// Writes calls in the profile's primary syntax, as its models would (round trips, few-shot
// examples). Throws std::invalid_argument when the primary grammar cannot render.
[[nodiscard]] std::string render_calls(const Profile& profile, const std::vector<Call>& calls);

}  // namespace toolgram
