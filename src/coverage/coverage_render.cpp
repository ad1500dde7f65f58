// `toolgram coverage`, the side for people (coverage.hpp): the report as a terminal
// table, Markdown, CSV, and one self-contained HTML page whose models × grammars heatmap
// is inline SVG (no script, no font, no stylesheet from elsewhere, so the file can be
// mailed or attached to a ticket and still open). Every format shows the same numbers;
// the json form (coverage.cpp) is the complete one.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "coverage/coverage.hpp"

namespace toolgram::coverage {

namespace {

// ---------------------------------------------------------------------------------------
// Shared helpers.

std::string pct(std::size_t a, std::size_t b) {
    if (b == 0) return "-";
    return std::to_string(static_cast<int>(std::lround(100.0 * static_cast<double>(a) / static_cast<double>(b)))) + "%";
}
std::string frac(std::size_t a, std::size_t b) { return std::to_string(a) + "/" + std::to_string(b); }
std::string frac_pct(std::size_t a, std::size_t b) { return b == 0 ? "-" : frac(a, b) + " " + pct(a, b); }
std::string num(std::size_t n) { return std::to_string(n); }
std::string dash_if_zero(std::size_t n) { return n ? std::to_string(n) : "-"; }

// Columns line up by characters, not bytes (model labels and arguments may be UTF-8).
std::size_t display_width(std::string_view s) {
    std::size_t n = 0;
    for (char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
    return n;
}

std::string one_line(std::string s, std::size_t max = 120) {
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (display_width(s) > max) {
        std::size_t bytes = 0, chars = 0;
        while (bytes < s.size() && chars < max - 1) {
            ++bytes;
            while (bytes < s.size() && (static_cast<unsigned char>(s[bytes]) & 0xC0) == 0x80) ++bytes;
            ++chars;
        }
        s = s.substr(0, bytes) + "…";
    }
    return s;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string calls_text(const json& calls) {
    if (!calls.is_array() || calls.empty()) return "no call";
    std::string out;
    for (const auto& c : calls) {
        if (!out.empty()) out += "; ";
        out += c.value("name", "") + " " + dump(c.value("arguments", json::object()));
    }
    return out;
}

// What an output came to, in a line: its calls, or its error.
std::string outcome_text(const json& summary) {
    if (summary.is_null()) return "(absent)";
    std::string s = calls_text(summary.value("calls", json::array()));
    const json err = summary.value("error", json());
    if (err.is_string()) s += " (error: " + err.get<std::string>() + ")";
    return s;
}

std::vector<std::string> grammars_by_outputs(const ModelRow& row) {
    std::vector<std::string> order;
    for (const auto& [g, c] : row.grammars)
        if (!g.empty()) order.push_back(g);
    std::stable_sort(order.begin(), order.end(), [&](const std::string& a, const std::string& b) {
        return row.grammars.at(a).outputs > row.grammars.at(b).outputs;
    });
    return order;
}

std::size_t total_outputs(const Report& r) {
    std::size_t n = 0;
    for (const auto& m : r.models) n += m.outputs;
    return n;
}

// "607 outputs from 36 models", "1 output from 1 model".
std::string counted(const Report& r) {
    const std::size_t n = total_outputs(r), m = r.models.size();
    return num(n) + (n == 1 ? " output" : " outputs") + " from " + num(m) + (m == 1 ? " model" : " models");
}

std::string change_counts(const std::vector<Change>& changes) {
    std::size_t changed = 0, added = 0, removed = 0;
    for (const auto& c : changes) (c.kind == "added" ? added : c.kind == "removed" ? removed : changed)++;
    return num(changed) + " changed, " + num(added) + " added, " + num(removed) + " removed";
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
    std::string out;
    for (const auto& s : v) {
        if (!out.empty()) out += sep;
        out += s;
    }
    return out;
}

std::string rejected_names_text(const GrammarCell& c) {
    std::string out;
    for (const auto& [name, n] : c.rejected_names) {
        if (!out.empty()) out += ", ";
        out += name.empty() ? std::string("(empty)") : name;
        if (n > 1) out += " ×" + num(n);
    }
    return out;
}

// The rows every tabular format shares: one per model (all its outputs), then one per
// grammar that did anything with them.
struct Row {
    bool model_row = false;
    std::string model, grammar;
    std::vector<std::string> cells;  // from "outputs" on, as in `headers`
};
const std::vector<std::string> headers = {"model", "grammar", "outputs", "primary", "fallback", "calls", "repaired",
                                          "healed", "schema fail", "rejected", "bad name", "syntax, no call",
                                          "no syntax", "exact calls"};

std::vector<Row> summary_rows(const Report& r) {
    std::vector<Row> rows;
    for (const ModelRow& m : r.models) {
        std::size_t calls = 0, repaired = 0, healed = 0, schema = 0, rejected = 0, names = 0, primary = 0, fallback = 0;
        for (const auto& [g, c] : m.grammars) {
            calls += c.calls;
            repaired += c.repaired;
            healed += c.healed;
            schema += c.schema_failures;
            rejected += c.rejected;
            names += c.name_rejections;
            primary += c.primary;
            fallback += c.fallback;
        }
        rows.push_back({true, m.model, "(all)",
                        {frac_pct(m.with_calls, m.outputs), dash_if_zero(primary), dash_if_zero(fallback), num(calls),
                         dash_if_zero(repaired), dash_if_zero(healed), dash_if_zero(schema), dash_if_zero(rejected),
                         dash_if_zero(names), dash_if_zero(m.syntax_no_call), dash_if_zero(m.no_syntax),
                         frac_pct(m.exact, m.expected)}});
        for (const auto& g : grammars_by_outputs(m)) {
            const GrammarCell& c = m.grammars.at(g);
            rows.push_back({false, m.model, g,
                            {frac_pct(c.outputs, m.outputs), dash_if_zero(c.primary), dash_if_zero(c.fallback),
                             dash_if_zero(c.calls), dash_if_zero(c.repaired), dash_if_zero(c.healed),
                             dash_if_zero(c.schema_failures), dash_if_zero(c.rejected), dash_if_zero(c.name_rejections),
                             dash_if_zero(c.syntax_no_call), "", frac_pct(c.exact, c.expected)}});
        }
    }
    return rows;
}

struct VariantRow {
    std::string model, grammar, key, label;
    std::size_t blocks = 0, of = 0;
};
std::vector<VariantRow> variant_rows(const Report& r) {
    std::vector<VariantRow> rows;
    for (const ModelRow& m : r.models)
        for (const auto& g : grammars_by_outputs(m))
            for (const VariantShare& v : variants_of(m.grammars.at(g), r.rule_filter))
                rows.push_back({m.model, g, v.key, v.label, v.blocks, v.of});
    return rows;
}

// ---------------------------------------------------------------------------------------
// Terminal.

std::string pad(const std::string& s, std::size_t width, bool right) {
    const std::size_t w = display_width(s);
    if (w >= width) return s;
    return right ? std::string(width - w, ' ') + s : s + std::string(width - w, ' ');
}

std::string text_table(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows,
                       std::size_t left_columns) {
    std::vector<std::size_t> width(head.size(), 0);
    for (std::size_t i = 0; i < head.size(); ++i) width[i] = display_width(head[i]);
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size() && i < width.size(); ++i) width[i] = std::max(width[i], display_width(row[i]));
    auto line = [&](const std::vector<std::string>& cells) {
        std::string out;
        for (std::size_t i = 0; i < head.size(); ++i) {
            const std::string& c = i < cells.size() ? cells[i] : std::string();
            const bool last = i + 1 == head.size();
            std::string cell = pad(c, width[i], i >= left_columns);
            if (last && i < left_columns) cell = c;  // no trailing blanks
            out += cell + (last ? "" : "  ");
        }
        return out + "\n";
    };
    std::string out = line(head);
    std::size_t total = 0;
    for (auto w : width) total += w + 2;
    out += std::string(total > 2 ? total - 2 : 0, '-') + "\n";
    for (const auto& row : rows) out += line(row);
    return out;
}

}  // namespace

std::string render_table(const Report& r) {
    std::ostringstream out;
    out << "toolgram coverage: " << counted(r);
    if (!r.inputs.empty()) out << " (" << join(r.inputs, ", ") << ")";
    out << "\n\n";
    std::vector<std::vector<std::string>> rows;
    std::string last_model;
    for (const Row& row : summary_rows(r)) {
        std::vector<std::string> cells = {row.model_row ? row.model : "", row.grammar};
        cells.insert(cells.end(), row.cells.begin(), row.cells.end());
        rows.push_back(std::move(cells));
    }
    out << text_table(headers, rows, 2);
    out << "\noutputs: outputs in which the grammar produced a call (share of the model's outputs);"
           " calls, repaired, healed: accepted calls;\nschema fail, rejected, bad name: candidates;"
           " syntax, no call: outputs with tool syntax but no call; exact calls: outputs whose calls\n"
           "equal the expectation (names and arguments).\n";

    const auto variants = variant_rows(r);
    out << "\n" << (r.rule_filter.empty() ? "Rule variants" : "Rules containing \"" + r.rule_filter + "\"")
        << " (share of the grammar's blocks in the model's outputs)\n";
    if (variants.empty()) {
        out << "  none exercised\n";
    } else {
        std::vector<std::vector<std::string>> vrows;
        const VariantRow* prev = nullptr;
        for (const auto& v : variants) {
            const bool same_model = prev && prev->model == v.model;
            const bool same_cell = same_model && prev->grammar == v.grammar;
            vrows.push_back({same_model ? "" : v.model, same_cell ? "" : v.grammar, v.label, frac(v.blocks, v.of), pct(v.blocks, v.of)});
            prev = &v;
        }
        out << text_table({"model", "grammar", r.rule_filter.empty() ? "variant" : "rule", "blocks", "share"}, vrows, 3);
    }

    bool any_names = false;
    for (const auto& m : r.models)
        for (const auto& [g, c] : m.grammars)
            if (!c.rejected_names.empty()) {
                if (!any_names) out << "\nRejected tool names\n";
                any_names = true;
                out << "  " << m.model << " / " << g << ": " << rejected_names_text(c) << "\n";
            }

    if (r.changes) {
        out << "\nChanges against " << r.diff_against.value_or("the earlier run") << ": " << change_counts(*r.changes)
            << " (of " << r.outputs.size() << " outputs)\n";
        for (const Change& c : *r.changes) {
            out << "  " << c.kind << "  " << c.id << "  [" << c.model << "]";
            if (!c.fields.empty()) out << "  " << join(c.fields, ", ");
            out << "\n";
            if (!c.before.is_null()) out << "      before: " << one_line(outcome_text(c.before)) << "\n";
            if (!c.after.is_null()) out << "      after:  " << one_line(outcome_text(c.after)) << "\n";
            if (std::find(c.fields.begin(), c.fields.end(), "content") != c.fields.end()) {
                out << "      content before: " << one_line(c.before.value("content", "")) << "\n";
                out << "      content after:  " << one_line(c.after.value("content", "")) << "\n";
            }
        }
    }
    if (!r.problems.empty()) {
        out << "\n" << r.problems.size() << " input" << (r.problems.size() == 1 ? "" : "s") << " could not be used:\n";
        for (const auto& p : r.problems) out << "  " << p.where << ": " << p.message << "\n";
    }
    return out.str();
}

// ---------------------------------------------------------------------------------------
// Markdown.

namespace {

std::string md(std::string s) {
    std::string out;
    // Pipes would split the cell; angle brackets would be read as HTML (`</parameter>`).
    for (char c : one_line(std::move(s), 200)) {
        if (c == '|') out += "\\|";
        else if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else out += c;
    }
    return out;
}

std::string md_table(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows,
                     std::size_t left_columns) {
    std::string out = "|";
    for (const auto& h : head) {
        out += ' ';
        out += md(h);
        out += " |";
    }
    out += "\n|";
    for (std::size_t i = 0; i < head.size(); ++i) out += i < left_columns ? "---|" : "---:|";
    out += "\n";
    for (const auto& row : rows) {
        out += "|";
        for (std::size_t i = 0; i < head.size(); ++i) {
            out += ' ';
            if (i < row.size()) out += row[i];
            out += " |";
        }
        out += "\n";
    }
    return out;
}

}  // namespace

std::string render_markdown(const Report& r) {
    std::ostringstream out;
    out << "# Tool-call coverage by model\n\n"
        << counted(r);
    if (!r.inputs.empty()) out << " (" << md(join(r.inputs, ", ")) << ")";
    out << ".\n\n## Models × grammars\n\n";
    std::vector<std::vector<std::string>> rows;
    for (const Row& row : summary_rows(r)) {
        std::vector<std::string> cells = {row.model_row ? "**" + md(row.model) + "**" : "",
                                          row.model_row ? "*all*" : md(row.grammar)};
        for (const auto& c : row.cells) cells.push_back(md(c));
        rows.push_back(std::move(cells));
    }
    out << md_table(headers, rows, 2);
    out << "\n*outputs*: outputs in which the grammar produced a call (share of the model's outputs). "
           "*calls*, *repaired*, *healed*: accepted calls. *schema fail*, *rejected*, *bad name*: candidates. "
           "*syntax, no call*: outputs with tool syntax but no call. *exact calls*: outputs whose calls equal "
           "the expectation (names and arguments).\n";

    out << "\n## " << (r.rule_filter.empty() ? "Rule variants" : "Rules containing `" + md(r.rule_filter) + "`") << "\n\n";
    const auto variants = variant_rows(r);
    if (variants.empty()) {
        out << "None exercised.\n";
    } else {
        std::vector<std::vector<std::string>> vrows;
        for (const auto& v : variants)
            vrows.push_back({md(v.model), md(v.grammar), md(v.label), "`" + md(v.key) + "`", frac(v.blocks, v.of), pct(v.blocks, v.of)});
        out << md_table({"model", "grammar", "variant", "rule", "blocks", "share"}, vrows, 4);
    }

    std::vector<std::vector<std::string>> names;
    for (const auto& m : r.models)
        for (const auto& [g, c] : m.grammars)
            if (!c.rejected_names.empty()) names.push_back({md(m.model), md(g), md(rejected_names_text(c))});
    if (!names.empty()) out << "\n## Rejected tool names\n\n" << md_table({"model", "grammar", "names"}, names, 3);

    if (r.changes) {
        out << "\n## Changes against " << md(r.diff_against.value_or("the earlier run")) << "\n\n"
            << change_counts(*r.changes) << " (of " << r.outputs.size() << " outputs).\n\n";
        if (!r.changes->empty()) {
            std::vector<std::vector<std::string>> crows;
            for (const Change& c : *r.changes)
                crows.push_back({c.kind, "`" + md(c.id) + "`", md(c.model), md(join(c.fields, ", ")),
                                 md(outcome_text(c.before)), md(outcome_text(c.after))});
            out << md_table({"change", "output", "model", "fields", "before", "after"}, crows, 6);
        }
    }
    if (!r.problems.empty()) {
        out << "\n## Inputs that could not be used\n\n";
        std::vector<std::vector<std::string>> prows;
        for (const auto& p : r.problems) prows.push_back({"`" + md(p.where) + "`", md(p.message)});
        out << md_table({"input", "problem"}, prows, 2);
    }
    return out.str();
}

// ---------------------------------------------------------------------------------------
// CSV (RFC 4180): one row per model and per model × grammar; with --diff, the changes.

namespace {

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += "\"\"";
        else out += c;
    }
    return out + "\"";
}

std::string csv_line(const std::vector<std::string>& fields) {
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i) out += ',';
        out += csv_field(fields[i]);
    }
    return out + "\r\n";
}

std::string ratio(std::size_t a, std::size_t b) {
    if (b == 0) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", static_cast<double>(a) / static_cast<double>(b));
    return buf;
}

}  // namespace

const std::vector<std::string>& csv_columns() {
    static const std::vector<std::string> columns = {
        "model",      "grammar",  "outputs",        "model_outputs", "share",          "primary",
        "fallback",   "calls",    "repaired",       "healed",        "candidates",     "schema_failures",
        "rejected",   "name_rejections", "syntax_no_call", "no_syntax", "expected", "exact",
        "accuracy",   "blocks",   "variants"};
    return columns;
}

std::string render_csv(const Report& r) {
    std::string out;
    if (r.changes) {
        out += csv_line({"change", "id", "model", "fields", "before", "after"});
        for (const Change& c : *r.changes)
            out += csv_line({c.kind, c.id, c.model, join(c.fields, ";"), c.before.is_null() ? "" : dump(c.before),
                             c.after.is_null() ? "" : dump(c.after)});
        return out;
    }
    out += csv_line(csv_columns());
    for (const ModelRow& m : r.models) {
        std::size_t calls = 0, repaired = 0, healed = 0, cands = 0, schema = 0, rejected = 0, names = 0, primary = 0,
                    fallback = 0, blocks = 0;
        for (const auto& [g, c] : m.grammars) {
            calls += c.calls;
            repaired += c.repaired;
            healed += c.healed;
            cands += c.candidates;
            schema += c.schema_failures;
            rejected += c.rejected;
            names += c.name_rejections;
            primary += c.primary;
            fallback += c.fallback;
            blocks += c.rules.blocks;
        }
        out += csv_line({m.model, "", num(m.with_calls), num(m.outputs), ratio(m.with_calls, m.outputs), num(primary),
                         num(fallback), num(calls), num(repaired), num(healed), num(cands), num(schema), num(rejected),
                         num(names), num(m.syntax_no_call), num(m.no_syntax), num(m.expected), num(m.exact),
                         ratio(m.exact, m.expected), num(blocks), ""});
        for (const auto& g : grammars_by_outputs(m)) {
            const GrammarCell& c = m.grammars.at(g);
            std::vector<std::string> vs;
            for (const VariantShare& v : variants_of(c, r.rule_filter)) vs.push_back(v.key + "=" + num(v.blocks));
            out += csv_line({m.model, g, num(c.outputs), num(m.outputs), ratio(c.outputs, m.outputs), num(c.primary),
                             num(c.fallback), num(c.calls), num(c.repaired), num(c.healed), num(c.candidates),
                             num(c.schema_failures), num(c.rejected), num(c.name_rejections), num(c.syntax_no_call), "",
                             num(c.expected), num(c.exact), ratio(c.exact, c.expected), num(c.rules.blocks), join(vs, ";")});
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// HTML: one file, inline CSS and SVG.

namespace {

std::string esc(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

struct Rgb {
    double r, g, b;
};

// Piecewise-linear colour scales (ColorBrewer Blues, Oranges, RdYlGn), t in [0, 1].
template <std::size_t N>
std::string scale(const std::array<Rgb, N>& stops, double t) {
    t = std::clamp(t, 0.0, 1.0);
    const double x = t * static_cast<double>(N - 1);
    const std::size_t i = std::min(static_cast<std::size_t>(x), N - 2);
    const double f = x - static_cast<double>(i);
    const Rgb& a = stops[i];
    const Rgb& b = stops[i + 1];
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround(a.r + (b.r - a.r) * f)),
                  static_cast<int>(std::lround(a.g + (b.g - a.g) * f)), static_cast<int>(std::lround(a.b + (b.b - a.b) * f)));
    return buf;
}
constexpr std::array<Rgb, 5> blues = {{{222, 235, 247}, {158, 202, 225}, {66, 146, 198}, {33, 113, 181}, {8, 48, 107}}};
constexpr std::array<Rgb, 3> oranges = {{{254, 230, 206}, {253, 141, 60}, {166, 54, 3}}};
constexpr std::array<Rgb, 3> greys = {{{240, 240, 240}, {189, 189, 189}, {99, 99, 99}}};
constexpr std::array<Rgb, 3> red_to_green = {{{215, 48, 39}, {254, 224, 139}, {26, 152, 80}}};

const char* const empty_fill = "#f3f4f7";

double share(std::size_t a, std::size_t b) { return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }

// Text on a filled cell: white where the fill is dark.
const char* ink_on_blue(double t) { return t >= 0.45 ? "#ffffff" : "#10243e"; }

std::string fixed(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

struct Svg {
    std::ostringstream s;
    void rect(double x, double y, double w, double h, const std::string& fill, const std::string& title,
              const std::string& cls = "cell") {
        s << "<rect class=\"" << cls << "\" x=\"" << fixed(x) << "\" y=\"" << fixed(y) << "\" width=\"" << fixed(w)
          << "\" height=\"" << fixed(h) << "\" rx=\"3\" fill=\"" << fill << "\">";
        if (!title.empty()) s << "<title>" << esc(title) << "</title>";
        s << "</rect>";
    }
    void text(double x, double y, const std::string& t, const std::string& attrs) {
        s << "<text x=\"" << fixed(x) << "\" y=\"" << fixed(y) << "\" " << attrs << ">" << esc(t) << "</text>";
    }
};

// A model label as the heatmap shows it: long ones (a full model path) shortened with
// an ellipsis, whole in the label's tooltip, so the grid keeps its place.
std::string row_label(const std::string& model) { return one_line(model, 36); }

// An estimate of a label's width at 12px in a sans-serif face, for layout only.
double label_px(std::string_view s, double size = 12.0) { return static_cast<double>(display_width(s)) * size * 0.58; }

std::string heatmap(const Report& r) {
    const std::vector<std::string> columns = grammar_columns(r);
    const double cw = 31, ch = 21, gap = 2, extra_w = 58;
    double label_w = 120;
    for (const auto& m : r.models) label_w = std::max(label_w, label_px(row_label(m.model) + " (0000)") + 18);
    label_w = std::min(label_w, 300.0);
    double head_h = 60;
    const std::vector<std::string> extra = {"syntax, no call", "no tool syntax", "exact calls"};
    for (const auto& g : columns) head_h = std::max(head_h, label_px(g) * 0.7071 + 24);
    double tail = 0;  // the last column's label leans right, past the grid
    for (const auto& e : extra) tail = std::max(tail, label_px(e) * 0.7071);
    head_h = std::max(head_h, tail + 24);
    const double grid_x = label_w;
    const double extra_x = grid_x + static_cast<double>(columns.size()) * (cw + gap) + 16;
    const double width = extra_x + 3 * (extra_w + gap) + std::max(12.0, tail - extra_w / 2 + 8);
    const double grid_y = head_h;
    const double height = grid_y + static_cast<double>(r.models.size()) * (ch + gap) + 8;

    Svg svg;
    svg.s << "<svg class=\"heatmap\" role=\"img\" aria-label=\"models by grammars heatmap\" width=\"" << fixed(width)
          << "\" height=\"" << fixed(height) << "\" viewBox=\"0 0 " << fixed(width) << " " << fixed(height) << "\">";
    // Column labels, at 45° so long grammar names fit above narrow columns.
    auto column_label = [&](double cx, const std::string& label, const char* cls) {
        svg.s << "<text class=\"" << cls << "\" transform=\"translate(" << fixed(cx) << "," << fixed(head_h - 8)
              << ") rotate(-45)\">" << esc(label) << "</text>";
    };
    for (std::size_t i = 0; i < columns.size(); ++i)
        column_label(grid_x + static_cast<double>(i) * (cw + gap) + cw / 2, columns[i], "col");
    for (std::size_t i = 0; i < extra.size(); ++i)
        column_label(extra_x + static_cast<double>(i) * (extra_w + gap) + extra_w / 2, extra[i], "col extra");

    for (std::size_t mi = 0; mi < r.models.size(); ++mi) {
        const ModelRow& m = r.models[mi];
        const double y = grid_y + static_cast<double>(mi) * (ch + gap);
        svg.s << "<g class=\"row\">";
        svg.rect(0, y - 1, width, ch + 2, "transparent", "", "band");
        svg.s << "<text class=\"model\" x=\"" << fixed(label_w - 10) << "\" y=\"" << fixed(y + ch / 2 + 4)
              << "\" text-anchor=\"end\">" << esc(row_label(m.model)) << "<tspan class=\"n\"> (" << m.outputs
              << ")</tspan><title>" << esc(m.model) << "</title></text>";
        for (std::size_t gi = 0; gi < columns.size(); ++gi) {
            const double x = grid_x + static_cast<double>(gi) * (cw + gap);
            auto it = m.grammars.find(columns[gi]);
            if (it == m.grammars.end()) {
                svg.rect(x, y, cw, ch, empty_fill, "");  // no title: most cells are empty, keep the file small
                continue;
            }
            const GrammarCell& c = it->second;
            const double t = share(c.outputs, m.outputs);
            std::string title = m.model + " × " + columns[gi] + ": calls in " + frac(c.outputs, m.outputs) +
                                " outputs (" + pct(c.outputs, m.outputs) + "), " + num(c.calls) + " calls";
            if (c.fallback) title += ", " + num(c.fallback) + " by fallback";
            if (c.repaired) title += ", " + num(c.repaired) + " repaired";
            if (c.healed) title += ", " + num(c.healed) + " healed";
            if (c.rejected) title += ", " + num(c.rejected) + " candidates rejected";
            if (c.schema_failures) title += " (" + num(c.schema_failures) + " by schema)";
            if (c.syntax_no_call) title += ", tool syntax without a call in " + num(c.syntax_no_call) + " outputs";
            if (c.expected) title += ", exact calls " + frac(c.exact, c.expected);
            if (c.outputs == 0) {
                // Syntax seen, nothing accepted: outlined, so "tried and failed" differs from "absent".
                svg.rect(x, y, cw, ch, empty_fill, title, "cell tried");
                if (c.syntax_no_call || c.rejected)
                    svg.text(x + cw / 2, y + ch / 2 + 4, "0", "class=\"v\" text-anchor=\"middle\" fill=\"#b5502a\"");
                continue;
            }
            svg.rect(x, y, cw, ch, scale(blues, 0.15 + 0.85 * t), title);
            svg.text(x + cw / 2, y + ch / 2 + 4, num(c.outputs),
                     std::string("class=\"v\" text-anchor=\"middle\" fill=\"") + ink_on_blue(0.15 + 0.85 * t) + "\"");
        }
        // Summary columns: syntax without a call, no syntax at all, exact-call accuracy.
        auto extra_cell = [&](std::size_t i, std::size_t n, const std::string& fill, const std::string& label,
                              const std::string& ink, const std::string& title) {
            const double x = extra_x + static_cast<double>(i) * (extra_w + gap);
            svg.rect(x, y, extra_w, ch, fill, title);
            svg.text(x + extra_w / 2, y + ch / 2 + 4, label, "class=\"v\" text-anchor=\"middle\" fill=\"" + ink + "\"");
            (void)n;
        };
        const double s1 = share(m.syntax_no_call, m.outputs);
        extra_cell(0, m.syntax_no_call, m.syntax_no_call ? scale(oranges, 0.1 + 0.9 * s1) : empty_fill,
                   m.syntax_no_call ? num(m.syntax_no_call) : "-", s1 > 0.4 ? "#ffffff" : "#4a2a10",
                   m.model + ": " + frac(m.syntax_no_call, m.outputs) + " outputs had tool syntax but gave no call");
        const double s2 = share(m.no_syntax, m.outputs);
        extra_cell(1, m.no_syntax, m.no_syntax ? scale(greys, 0.1 + 0.9 * s2) : empty_fill,
                   m.no_syntax ? num(m.no_syntax) : "-", s2 > 0.5 ? "#ffffff" : "#333333",
                   m.model + ": " + frac(m.no_syntax, m.outputs) + " outputs had no tool syntax");
        if (m.expected) {
            const double a = share(m.exact, m.expected);
            extra_cell(2, m.exact, scale(red_to_green, a), pct(m.exact, m.expected), a < 0.25 || a > 0.85 ? "#ffffff" : "#222222",
                       m.model + ": exact calls in " + frac(m.exact, m.expected) + " outputs with an expectation");
        } else {
            extra_cell(2, 0, empty_fill, "-", "#777777", m.model + ": no expectations given");
        }
        svg.s << "</g>";
    }

    svg.s << "</svg>";
    return svg.s.str();
}

// Columns before `left_columns` are text (left-aligned); from `wrap_from` on, cells wrap.
// The key to the heatmap's colours, above it so it is read first.
std::string legend() {
    Svg svg;
    svg.s << "<svg class=\"legend\" role=\"img\" aria-label=\"legend\" width=\"1180\" height=\"40\" viewBox=\"0 0 1180 40\">"
          << "<defs><linearGradient id=\"blues\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">";
    for (int i = 0; i <= 4; ++i)
        svg.s << "<stop offset=\"" << i * 25 << "%\" stop-color=\"" << scale(blues, 0.15 + 0.85 * i / 4.0) << "\"/>";
    svg.s << "</linearGradient><linearGradient id=\"rdylgn\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">";
    for (int i = 0; i <= 4; ++i)
        svg.s << "<stop offset=\"" << i * 25 << "%\" stop-color=\"" << scale(red_to_green, i / 4.0) << "\"/>";
    svg.s << "</linearGradient></defs>";
    svg.text(0, 13, "outputs with calls from the grammar, by share of the model's outputs", "class=\"legend\"");
    svg.rect(0, 20, 150, 12, "url(#blues)", "", "key");
    svg.text(156, 31, "0 → 100%", "class=\"legend muted\"");
    svg.rect(440, 20, 26, 12, empty_fill, "", "key tried");
    svg.text(472, 31, "syntax found, no call", "class=\"legend\"");
    svg.rect(440, 2, 26, 12, empty_fill, "", "key");
    svg.text(472, 13, "nothing", "class=\"legend\"");
    svg.rect(640, 2, 26, 12, scale(oranges, 0.5), "", "key");
    svg.text(672, 13, "tool syntax but no call", "class=\"legend\"");
    svg.rect(640, 20, 26, 12, scale(greys, 0.5), "", "key");
    svg.text(672, 31, "no tool syntax (outputs)", "class=\"legend\"");
    svg.text(880, 13, "exact calls, where expected", "class=\"legend\"");
    svg.rect(880, 20, 150, 12, "url(#rdylgn)", "", "key");
    svg.text(1036, 31, "0 → 100%", "class=\"legend muted\"");
    svg.s << "</svg>";
    return svg.s.str();
}

std::string html_table(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& rows,
                       std::size_t left_columns, const std::vector<std::string>& row_classes = {},
                       std::size_t wrap_from = std::string::npos) {
    std::string out = "<div class=\"scroll\"><table><thead><tr>";
    for (std::size_t i = 0; i < head.size(); ++i)
        out += std::string("<th") + (i < left_columns ? " class=\"l\"" : "") + ">" + esc(head[i]) + "</th>";
    out += "</tr></thead><tbody>";
    for (std::size_t ri = 0; ri < rows.size(); ++ri) {
        const std::string cls = ri < row_classes.size() ? row_classes[ri] : "";
        out += cls.empty() ? "<tr>" : "<tr class=\"" + cls + "\">";
        for (std::size_t i = 0; i < head.size(); ++i)
            out += std::string("<td") + (i >= wrap_from ? " class=\"wrap\"" : i < left_columns ? " class=\"l\"" : "") +
                   ">" + (i < rows[ri].size() ? rows[ri][i] : std::string()) + "</td>";
        out += "</tr>";
    }
    return out + "</tbody></table></div>";
}

const char* const css = R"(
:root{color-scheme:light}
body{font-family:"DejaVu Sans","Segoe UI",Helvetica,Arial,sans-serif;margin:28px 32px;color:#1d232b;background:#ffffff;font-size:14px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 8px}
p.sub{color:#556070;margin:0 0 18px}
.panel{overflow-x:auto;border:1px solid #e2e6ee;border-radius:8px;padding:10px 8px;background:#fcfdff}
svg.heatmap,svg.legend{display:block;max-width:100%;height:auto}
p.note{color:#556070;font-size:12px;margin:4px 0 8px}
svg text{font-family:inherit;font-size:12px}
svg text.col,svg text.model{fill:#1d232b}
svg text.col.extra{font-weight:bold}
svg tspan.n{fill:#7a8594}
svg text.v{font-size:12px}
svg text.legend{font-size:12px;fill:#3b4452}
svg text.legend.muted{fill:#7a8594}
svg rect.key{stroke:#c9ced8;stroke-width:0.6}
svg rect.tried{stroke:#d0703f;stroke-width:1.2;stroke-dasharray:3 2}
svg rect.band{pointer-events:all}
svg g.row:hover rect.band{fill:#eef3fb}
svg g.row:hover rect.cell{stroke:#1d232b;stroke-width:0.6}
table{border-collapse:collapse;font-size:13px;margin:6px 0 8px}
th,td{border-bottom:1px solid #e6e9ef;padding:4px 9px;text-align:right;white-space:nowrap;vertical-align:top}
th{background:#f2f4f8;font-weight:600}
td.l,th.l{text-align:left}
td.l:first-child{white-space:normal;overflow-wrap:anywhere;max-width:260px}
div.scroll{overflow-x:auto}
td.wrap{white-space:normal;max-width:520px;text-align:left}
tr.model td{background:#f7f8fb;font-weight:600;border-top:1px solid #d5dae3}
.bar{display:inline-block;height:9px;background:#3f7fcf;border-radius:2px;vertical-align:middle;margin-right:6px}
.barbox{display:inline-block;text-align:left;width:80px;background:#e9edf4;border-radius:2px;vertical-align:middle;margin-right:6px;line-height:0}
code{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12px;color:#44505f}
.kind-changed{color:#a0520f;font-weight:600}.kind-added{color:#1a7f43;font-weight:600}.kind-removed{color:#b3261e;font-weight:600}
footer{color:#7a8594;font-size:12px;margin-top:30px}
)";

}  // namespace

std::string render_html(const Report& r) {
    std::ostringstream out;
    std::size_t expected = 0, exact = 0;
    for (const auto& m : r.models) {
        expected += m.expected;
        exact += m.exact;
    }
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        << "<title>toolgram coverage</title>\n<style>" << css << "</style>\n</head>\n<body>\n"
        << "<h1>Tool-call coverage by model</h1>\n<p class=\"sub\">" << counted(r);
    if (expected) out << " · exact calls in " << frac(exact, expected) << " outputs with an expectation (" << pct(exact, expected) << ")";
    if (!r.inputs.empty()) out << " · " << esc(join(r.inputs, ", "));
    out << "</p>\n<h2>Models × grammars</h2>\n" << legend()
        << "\n<p class=\"note\">Rows: models (outputs). Hover a cell for its counts; the tables below have them all.</p>\n"
        << "<div class=\"panel\">" << heatmap(r) << "</div>\n";

    out << "<h2>Per model and grammar</h2>\n";
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> classes;
    for (const Row& row : summary_rows(r)) {
        std::vector<std::string> cells = {row.model_row ? esc(row.model) : "", row.model_row ? "all outputs" : esc(row.grammar)};
        for (const auto& c : row.cells) cells.push_back(esc(c));
        rows.push_back(std::move(cells));
        classes.push_back(row.model_row ? "model" : "");
    }
    out << html_table(headers, rows, 2, classes);
    out << "<p class=\"sub\">outputs: outputs in which the grammar produced a call (share of the model's outputs). "
           "calls, repaired, healed: accepted calls. schema fail, rejected, bad name: candidates. "
           "syntax, no call: outputs with tool syntax but no call. exact calls: outputs whose calls equal the "
           "expectation (names and arguments).</p>\n";

    out << "<h2>" << (r.rule_filter.empty() ? "Rule variants" : "Rules containing " + esc(r.rule_filter))
        << "</h2>\n<p class=\"sub\">Share of the grammar's blocks in the model's outputs that took each path.</p>\n";
    const auto variants = variant_rows(r);
    if (variants.empty()) {
        out << "<p>None exercised.</p>\n";
    } else {
        std::vector<std::vector<std::string>> vrows;
        for (const auto& v : variants) {
            const int w = static_cast<int>(std::lround(80.0 * share(v.blocks, v.of)));
            vrows.push_back({esc(v.model), esc(v.grammar), esc(v.label), "<code>" + esc(v.key) + "</code>", frac(v.blocks, v.of),
                             "<span class=\"barbox\"><span class=\"bar\" style=\"width:" + std::to_string(w) +
                                 "px\"></span></span>" + pct(v.blocks, v.of)});
        }
        out << html_table({"model", "grammar", "variant", "rule", "blocks", "share"}, vrows, 4);
    }

    std::vector<std::vector<std::string>> names;
    for (const auto& m : r.models)
        for (const auto& [g, c] : m.grammars)
            if (!c.rejected_names.empty()) names.push_back({esc(m.model), esc(g), esc(rejected_names_text(c))});
    if (!names.empty()) out << "<h2>Rejected tool names</h2>\n" << html_table({"model", "grammar", "names"}, names, 3);

    if (r.changes) {
        out << "<h2>Changes against " << esc(r.diff_against.value_or("the earlier run")) << "</h2>\n<p class=\"sub\">"
            << change_counts(*r.changes) << " (of " << r.outputs.size() << " outputs).</p>\n";
        if (!r.changes->empty()) {
            std::vector<std::vector<std::string>> crows;
            for (const Change& c : *r.changes)
                crows.push_back({"<span class=\"kind-" + c.kind + "\">" + c.kind + "</span>", "<code>" + esc(c.id) + "</code>",
                                 esc(c.model), esc(join(c.fields, ", ")), esc(one_line(outcome_text(c.before), 300)),
                                 esc(one_line(outcome_text(c.after), 300))});
            // The outcomes wrap; the other columns stay on one line.
            out << html_table({"change", "output", "model", "fields", "before", "after"}, crows, 6, {}, 4);
        }
    }
    if (!r.problems.empty()) {
        std::vector<std::vector<std::string>> prows;
        for (const auto& p : r.problems) prows.push_back({"<code>" + esc(p.where) + "</code>", esc(p.message)});
        out << "<h2>Inputs that could not be used</h2>\n" << html_table({"input", "problem"}, prows, 2);
    }
    out << "<footer>toolgram coverage · generated by <code>toolgram coverage --format html</code></footer>\n</body>\n</html>\n";
    return out.str();
}

bool known_format(std::string_view f) {
    return f == "table" || f == "markdown" || f == "csv" || f == "json" || f == "html";
}

std::string render(const Report& r, std::string_view format) {
    if (format == "table") return render_table(r);
    if (format == "markdown") return render_markdown(r);
    if (format == "csv") return render_csv(r);
    if (format == "html") return render_html(r);
    if (format == "json") return to_json(r).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
    return {};
}

}  // namespace toolgram::coverage
