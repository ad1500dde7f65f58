// Writes a libFuzzer dictionary for one grammar (or one profile): the strings that open,
// close and structure its syntax, so mutations can build real tool syntax in few steps.
// Run by the build for every harness (fuzz/CMakeLists.txt) and by scripts/fuzz for a
// profile; nothing here is maintained by hand except the optional extra files.
//
//   toolgram_fuzz_dict (--grammar NAME | --profile NAME | --profile-file FILE) --source-dir DIR
//                      [--extra FILE]… -o OUT
//
// Tokens, from what the code already knows:
//  - the grammar's markers and the settings it runs with (reasoning delimiters, content
//    markers, intent markers, the tag format's tags, a declared syntax's every spelling);
//  - the literals of its PEGTL rules: str<"…"> and istr<"…"> (grammars/common/spelling.hpp),
//    TAO_PEGTL_STRING("…"), TAO_PEGTL_ISTRING("…") and string<'…', …> in the grammar headers its reader includes (src/actions/*.cpp that
//    defines NAME_grammar), following their includes inside grammars/;
//  - the syntax around a rendered sample call: the text render() writes, cut at the
//    tool's name and at the argument's key and value, leaves the syntax's own tokens
//    (`<parameter=`, `</arg_value>`, `<｜tool▁sep｜>`), which covers runtime-built ones;
//  - the tool names and argument keys of the fuzzed tool list;
//  - then the lines of each --extra file (hand-written, already in dictionary syntax).
// Entries longer than 64 bytes are left out: libFuzzer ignores longer dictionary words.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "readers/grammar_def.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::size_t max_word = 64;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Decodes the body of a C++ string or character literal (the escapes grammars use).
std::string unescape(const std::string& body) {
    std::string out;
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '\\' || i + 1 == body.size()) {
            out += body[i];
            continue;
        }
        const char e = body[++i];
        switch (e) {
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case '0': out += '\0'; break;
            case 'x': {
                std::size_t n = 0;
                int v = 0;
                while (n < 2 && i + 1 < body.size() && std::isxdigit(static_cast<unsigned char>(body[i + 1]))) {
                    v = v * 16 + std::stoi(std::string(1, body[++i]), nullptr, 16);
                    ++n;
                }
                out += static_cast<char>(v);
                break;
            }
            default: out += e;  // \" \' \\ and the rest stand for themselves
        }
    }
    return out;
}

// The literals of a grammar header, and the headers it includes from the same folder.
void header_literals(const fs::path& header, const fs::path& grammars, std::set<fs::path>& seen,
                     std::set<std::string>& out) {
    if (!fs::exists(header) || !seen.insert(header).second) return;
    const std::string text = slurp(header);
    static const std::regex pegtl_string(R"re(TAO_PEGTL_I?STRING\(\s*"((?:[^"\\]|\\.)*)"\s*\))re");
    for (std::sregex_iterator it(text.begin(), text.end(), pegtl_string), end; it != end; ++it)
        out.insert(unescape((*it)[1].str()));
    static const std::regex spelled(R"re(\bi?str\s*<\s*"((?:[^"\\]|\\.)*)"\s*>)re");
    for (std::sregex_iterator it(text.begin(), text.end(), spelled), end; it != end; ++it)
        out.insert(unescape((*it)[1].str()));
    static const std::regex char_string(R"re(\bi?string\s*<\s*((?:'(?:[^'\\]|\\.)+'\s*,?\s*)+)>)re");
    static const std::regex one_char(R"re('((?:[^'\\]|\\.)+)')re");
    for (std::sregex_iterator it(text.begin(), text.end(), char_string), end; it != end; ++it) {
        const std::string chars = (*it)[1].str();
        std::string word;
        for (std::sregex_iterator c(chars.begin(), chars.end(), one_char); c != end; ++c) word += unescape((*c)[1].str());
        out.insert(word);
    }
    static const std::regex include(R"re(#include\s+"([^"]+)")re");
    // As the compiler finds them: beside the header, else from grammars/ (`common/…`).
    for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it) {
        const fs::path beside = header.parent_path() / (*it)[1].str();
        header_literals(fs::exists(beside) ? beside : grammars / (*it)[1].str(), grammars, seen, out);
    }
}

// The grammar headers included by the reader that defines NAME_grammar.
void grammar_literals(const std::string& grammar, const fs::path& source_dir, std::set<std::string>& out) {
    const std::string definition = "GrammarDef " + grammar + "_grammar";
    std::set<fs::path> seen;
    for (const auto& e : fs::directory_iterator(source_dir / "src" / "actions")) {
        if (e.path().extension() != ".cpp") continue;
        const std::string text = slurp(e.path());
        if (text.find(definition + "{") == std::string::npos && text.find(definition + " {") == std::string::npos &&
            text.find(definition + " =") == std::string::npos)
            continue;
        static const std::regex include(R"re(#include\s+"([^"]+)")re");
        for (std::sregex_iterator it(text.begin(), text.end(), include), end; it != end; ++it)
            header_literals(source_dir / "grammars" / (*it)[1].str(), source_dir / "grammars", seen, out);
    }
}

// The syntax of a rendered sample call: its text less the name, key and value.
void rendered_syntax(const toolgram::detail::GrammarDef& g, const toolgram::Settings& settings,
                     std::set<std::string>& out) {
    if (!g.render) return;
    const std::vector<toolgram::Call> calls = {{"call_7", "get_weather", {{"city", "Paris"}}}};
    std::string text;
    try {
        text = g.render(calls, settings);
    } catch (const std::exception&) {
        return;
    }
    out.insert(text);
    std::size_t from = 0;
    while (from < text.size()) {
        std::size_t cut = std::string::npos, len = 0;
        for (std::string_view w : {"get_weather", "city", "Paris", "call_7"}) {
            const std::size_t at = text.find(w, from);
            if (at < cut) {
                cut = at;
                len = w.size();
            }
        }
        std::string piece = text.substr(from, cut == std::string::npos ? std::string::npos : cut - from);
        const auto b = piece.find_first_not_of(" \n");
        const auto e = piece.find_last_not_of(" \n");
        if (b != std::string::npos) out.insert(piece.substr(b, e - b + 1));
        if (cut == std::string::npos) break;
        from = cut + len;
    }
}

// Every spelling of every token of a declared syntax (the grammar `declared`'s rules have
// no literals of their own: the profile file's are its tokens).
void declared_tokens(const toolgram::DeclaredSyntax& d, std::set<std::string>& out) {
    auto add = [&](const std::vector<std::string>& list) { out.insert(list.begin(), list.end()); };
    if (d.section) {
        add(d.section->open);
        add(d.section->close);
    }
    add(d.call.open);
    add(d.call.close);
    if (d.header) {
        add(d.header->name.prefix);
        add(d.header->end);
        if (!d.header->name.attribute.empty()) out.insert(" " + d.header->name.attribute + "=\"");
        if (d.header->id) {
            add(d.header->id->after_name);
            add(d.header->id->marker);
        }
    }
    const toolgram::DeclaredSyntax::Parameter& p = d.arguments.parameter;
    add(p.open);
    add(p.key_end);
    add(p.value_open);
    add(p.close);
    if (!p.key_attribute.empty()) out.insert(" " + p.key_attribute + "=\"");
}

void settings_tokens(const toolgram::Settings& s, std::set<std::string>& out) {
    if (s.declared_syntax) declared_tokens(*s.declared_syntax, out);
    for (const auto& d : s.reasoning) out.insert({d.open, d.close});
    for (const auto& m : s.content_markers) out.insert(m);
    for (const auto& m : s.intent_markers) out.insert(m);
    out.insert({s.tag_open, s.tag_close});
}

void grammar_tokens(const std::string& name, const toolgram::Settings& settings, const fs::path& source_dir,
                    std::set<std::string>& out) {
    const toolgram::detail::GrammarDef* g = toolgram::detail::find_grammar(name);
    if (!g) throw std::runtime_error("unknown grammar \"" + name + "\"");
    if (g->markers)
        for (const auto& m : g->markers(settings)) out.insert(m);
    grammar_literals(name, source_dir, out);
    rendered_syntax(*g, settings, out);
}

std::string escaped(const std::string& word) {
    std::string out = "\"";
    for (const unsigned char c : word) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02X", c);
            out += hex;
        }
    }
    return out + "\"";
}

int usage() {
    std::cerr << "usage: toolgram_fuzz_dict (--grammar NAME | --profile NAME | --profile-file FILE) --source-dir DIR\n"
                 "                          [--extra FILE]... -o OUT\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string grammar, profile, profile_file, output;
    fs::path source_dir;
    std::vector<fs::path> extras;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) return usage();
        const std::string v = argv[++i];
        if (a == "--grammar") grammar = v;
        else if (a == "--profile") profile = v;
        else if (a == "--profile-file") profile_file = v;
        else if (a == "--source-dir") source_dir = v;
        else if (a == "--extra") extras.emplace_back(v);
        else if (a == "-o") output = v;
        else return usage();
    }
    if (!grammar.empty() + !profile.empty() + !profile_file.empty() != 1 || source_dir.empty() || output.empty())
        return usage();
    try {
        std::set<std::string> words;
        if (!grammar.empty()) {
            const toolgram::Settings settings = toolgram_fuzz::settings_for_grammar(grammar);
            grammar_tokens(grammar, settings, source_dir, words);
            settings_tokens(settings, words);
        } else {
            const toolgram::Profile p =
                profile_file.empty() ? toolgram::builtin_profile(profile) : toolgram::load_profile_file(profile_file);
            for (const auto& use : p.grammars) grammar_tokens(use.grammar, p.settings, source_dir, words);
            settings_tokens(p.settings, words);
        }
        for (const auto& t : toolgram_fuzz::tools()) {
            words.insert(t.name);
            if (auto props = t.parameters.find("properties"); props != t.parameters.end() && props->is_object())
                for (auto it = props->begin(); it != props->end(); ++it) words.insert(it.key());
        }
        std::ostringstream dict;
        dict << "# generated by toolgram_fuzz_dict for "
             << (!grammar.empty() ? "grammar " + grammar : !profile.empty() ? "profile " + profile : "profile file " + profile_file)
             << "\n";
        std::size_t count = 0;
        for (const auto& w : words) {
            if (w.empty() || w.size() > max_word) continue;
            dict << escaped(w) << "\n";
            ++count;
        }
        if (count == 0) throw std::runtime_error("no token found");
        for (const auto& extra : extras) {
            if (!fs::exists(extra)) continue;
            dict << "# from " << extra.filename().string() << "\n" << slurp(extra);
        }
        std::ofstream out(output, std::ios::binary);
        out << dict.str();
        if (!out) throw std::runtime_error("cannot write " + output);
    } catch (const std::exception& e) {
        std::cerr << "toolgram_fuzz_dict: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
