// The `toolgram` command line: parse model output into calls, print format instructions,
// list profiles and grammars, report grammar coverage across models (coverage_command.cpp).
//
// Output is JSON on stdout (always valid UTF-8); messages for people go to stderr.
// Exit codes: 0 done (finding no call is not a failure), 2 usage error, 3 unreadable or
// invalid input file (tools, text), 1 unexpected internal error.
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace toolgram::cli {
int coverage_command(const std::vector<std::string>& args);  // src/cli/coverage_command.cpp
}

namespace {

using toolgram::json;

constexpr int exit_usage = 2;
constexpr int exit_input = 3;

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* main_help =
    "usage: toolgram <command> [options]\n"
    "\n"
    "Turns the raw text a language model wrote into validated tool calls.\n"
    "\n"
    "commands:\n"
    "  parse        parse model output (a file, stdin, or JSONL) and print the result as JSON\n"
    "  instruction  print the system-prompt text that teaches a model a profile's syntax\n"
    "  profiles     list the built-in profiles\n"
    "  grammars     list the grammars profiles are made of\n"
    "  coverage     report how each model's outputs fare with each grammar (tables, heatmap, diff)\n"
    "\n"
    "Run 'toolgram <command> --help' for a command's options.\n";

const char* parse_help =
    "usage: toolgram parse [FILE|-] [--profile NAME] [--tools TOOLS.json] [--openai]\n"
    "       toolgram parse --jsonl FILE|- [--profile NAME] [--tools TOOLS.json]\n"
    "\n"
    "Reads model output from FILE (or stdin when FILE is '-' or absent) and prints one JSON\n"
    "object: {\"calls\":[…],\"content\":…,\"reasoning\":…,\"telemetry\":{…},\"error\":null|{…}}.\n"
    "\n"
    "options:\n"
    "  --profile NAME        grammars to use (default: auto); see 'toolgram profiles'\n"
    "  --tools FILE          tools the model may call: OpenAI's tools array, or {name, parameters}\n"
    "                        objects. Without it any name is accepted and nothing is validated.\n"
    "  --openai              print an OpenAI chat-completion assistant message instead\n"
    "  --jsonl               input lines are {\"id\",\"text\",\"tools\"?,\"profile\"?}; prints one result\n"
    "                        per line with the same id. A bad line gives an error object, not a stop.\n"
    "  --tool-required       the caller requires a tool call (satisfies the fallback intent gate)\n"
    "  --accept-reasoning-calls  accept calls written inside reasoning blocks\n"
    "  --tag-open TEXT, --tag-close TEXT   the tag grammar's delimiters\n"
    "  --fallback-max-bytes N  size gate for fallback candidates (default 2048)\n"
    "  --pretty              indent the JSON output\n"
    "  --summary             print one line per result for people instead of JSON\n";

const char* instruction_help =
    "usage: toolgram instruction --profile NAME [--tools TOOLS.json]\n"
    "\n"
    "Prints the system-prompt text that tells a model how to write calls in the profile's\n"
    "primary syntax, followed by the tool list.\n";

std::string read_all(std::istream& in) {
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string read_file_or_stdin(const std::string& path) {
    if (path.empty() || path == "-") return read_all(std::cin);
    std::ifstream f(path, std::ios::binary);
    if (!f) throw InputError("cannot read " + path + ": " + std::strerror(errno));
    return read_all(f);
}

std::vector<toolgram::Tool> read_tools(const std::string& path) {
    const std::string text = read_file_or_stdin(path);
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw InputError("tools file " + path + " is not valid JSON: " + e.what());
    }
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
        line += "  [" + t.parse_mode + ", " + t.grammar + (t.healed ? ", healed" : "") + "]";
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

struct ParseOptions {
    std::string file;
    std::string profile = "auto";
    std::string tools_path;
    bool openai = false;
    bool jsonl = false;
    bool pretty = false;
    bool summary = false;
    bool tool_required = false;
    bool accept_reasoning_calls = false;
    std::optional<std::string> tag_open, tag_close;
    std::optional<std::size_t> fallback_max_bytes;
};

toolgram::Profile make_profile(const std::string& name, const ParseOptions& o) {
    toolgram::Profile p;
    try {
        p = toolgram::builtin_profile(name);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    p.settings.tool_required = o.tool_required;
    p.settings.accept_calls_in_reasoning = o.accept_reasoning_calls;
    if (o.tag_open) p.settings.tag_open = *o.tag_open;
    if (o.tag_close) p.settings.tag_close = *o.tag_close;
    if (o.fallback_max_bytes) p.settings.fallback_max_bytes = *o.fallback_max_bytes;
    return p;
}

int run_jsonl(const ParseOptions& o, const std::vector<toolgram::Tool>& default_tools) {
    const std::string input = read_file_or_stdin(o.file);
    std::istringstream lines(input);
    std::string line;
    std::size_t line_no = 0;
    while (std::getline(lines, line)) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        json out;
        json id = nullptr;
        try {
            const json in = json::parse(line);
            if (!in.is_object()) throw std::invalid_argument("line is not a JSON object");
            if (auto it = in.find("id"); it != in.end()) id = *it;
            auto text = in.find("text");
            if (text == in.end() || !text->is_string()) throw std::invalid_argument("line has no \"text\" string");
            std::vector<toolgram::Tool> tools = default_tools;
            if (auto t = in.find("tools"); t != in.end()) tools = toolgram::tools_from_json(*t);
            std::string profile = o.profile;
            if (auto p = in.find("profile"); p != in.end() && p->is_string()) profile = p->get<std::string>();
            toolgram::Parser parser(make_profile(profile, o), std::move(tools));
            const toolgram::Result r = parser.parse(text->get<std::string>());
            if (o.summary) {
                std::cout << summary_line(id.is_string() ? id.get<std::string>() : id.dump(), r) << "\n";
                continue;
            }
            out = o.openai ? toolgram::to_openai_message(r) : toolgram::to_json(r);
            out["id"] = id;
        } catch (const std::exception& e) {
            out = {{"id", id}, {"error", {{"message", "line " + std::to_string(line_no) + ": " + e.what()}}}};
        }
        std::cout << dump(out, o.pretty) << "\n";
    }
    return 0;
}

int cmd_parse(const std::vector<std::string>& args) {
    ParseOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](const char* flag) -> std::string {
            if (i + 1 >= args.size()) throw UsageError(std::string(flag) + " needs a value");
            return args[++i];
        };
        if (a == "--help" || a == "-h") {
            std::cout << parse_help;
            return 0;
        } else if (a == "--profile") o.profile = value("--profile");
        else if (a == "--tools") o.tools_path = value("--tools");
        else if (a == "--openai") o.openai = true;
        else if (a == "--jsonl") o.jsonl = true;
        else if (a == "--pretty") o.pretty = true;
        else if (a == "--summary") o.summary = true;
        else if (a == "--tool-required") o.tool_required = true;
        else if (a == "--accept-reasoning-calls") o.accept_reasoning_calls = true;
        else if (a == "--tag-open") o.tag_open = value("--tag-open");
        else if (a == "--tag-close") o.tag_close = value("--tag-close");
        else if (a == "--fallback-max-bytes") {
            const std::string v = value("--fallback-max-bytes");
            try {
                o.fallback_max_bytes = std::stoul(v);
            } catch (const std::exception&) {
                throw UsageError("--fallback-max-bytes needs a number, got \"" + v + "\"");
            }
        } else if (a.size() > 1 && a[0] == '-' && a != "-") throw UsageError("unknown option " + a + " (see toolgram parse --help)");
        else if (o.file.empty()) o.file = a;
        else throw UsageError("more than one input file given: " + o.file + " and " + a);
    }
    const std::vector<toolgram::Tool> tools = o.tools_path.empty() ? std::vector<toolgram::Tool>{} : read_tools(o.tools_path);
    if (o.jsonl) return run_jsonl(o, tools);
    const std::string text = read_file_or_stdin(o.file);
    std::optional<toolgram::Parser> parser;
    try {
        parser.emplace(make_profile(o.profile, o), tools);
    } catch (const std::invalid_argument& e) {
        throw InputError(e.what());
    }
    const toolgram::Result r = parser->parse(text);
    if (o.summary) {
        std::cout << summary_line("", r) << "\n";
        return 0;
    }
    std::cout << dump(o.openai ? toolgram::to_openai_message(r) : toolgram::to_json(r), o.pretty) << "\n";
    return 0;
}

int cmd_instruction(const std::vector<std::string>& args) {
    ParseOptions o;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            std::cout << instruction_help;
            return 0;
        } else if (a == "--profile" && i + 1 < args.size()) o.profile = args[++i];
        else if (a == "--tools" && i + 1 < args.size()) o.tools_path = args[++i];
        else throw UsageError("unexpected argument " + a + " (see toolgram instruction --help)");
    }
    const auto tools = o.tools_path.empty() ? std::vector<toolgram::Tool>{} : read_tools(o.tools_path);
    std::cout << toolgram::format_instruction(make_profile(o.profile, o), tools);
    return 0;
}

int cmd_profiles() {
    for (const auto& name : toolgram::builtin_profile_names()) {
        const auto p = toolgram::builtin_profile(name);
        std::string grammars;
        for (const auto& g : p.grammars)
            grammars += (grammars.empty() ? "" : ", ") + g.grammar + (g.role == toolgram::Role::fallback ? " (fallback)" : "");
        std::cout << name << "\t" << p.description << "\n\tmodels: " << p.models << "\n\tgrammars: " << grammars << "\n";
    }
    return 0;
}

int cmd_grammars() {
    for (const auto& g : toolgram::grammar_catalogue()) std::cout << g.name << "\t" << g.summary << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << main_help;
        return args.empty() ? exit_usage : 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    try {
        if (command == "parse") return cmd_parse(args);
        if (command == "instruction") return cmd_instruction(args);
        if (command == "coverage") return toolgram::cli::coverage_command(args);
        const bool wants_help = !args.empty() && (args[0] == "--help" || args[0] == "-h");
        if (command == "profiles") {
            if (wants_help) std::cout << "usage: toolgram profiles\n\nLists the built-in profiles and their grammars.\n";
            else if (!args.empty()) throw UsageError("profiles takes no arguments");
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
    } catch (const std::exception& e) {
        std::cerr << "toolgram: internal error: " << e.what() << "\n";
        return 1;
    }
}
