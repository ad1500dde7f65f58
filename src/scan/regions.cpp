// Reasoning blocks and fences (see regions.hpp).
#include "scan/regions.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <optional>

#include "text/ascii.hpp"

namespace toolgram::detail {

std::vector<Region> find_reasoning(ScanContext& ctx, std::size_t limit, const Masked& masked) {
    const std::string_view text = ctx.text().substr(0, limit);
    const auto& pairs = ctx.settings().reasoning;
    std::vector<Region> out;
    if (pairs.empty()) return out;

    // The first occurrence of `needle` at or after `from` that is not strictly inside a
    // masked span. A hit inside one resumes the search at the span's end, so each span
    // costs one search per delimiter, whatever it holds.
    auto find = [&](std::string_view needle, std::size_t from) {
        for (;;) {
            const std::size_t at = ctx.find(needle, from);
            // A delimiter counts only whole before the limit: one that straddles it would
            // open a region whose inside begins past its end.
            if (at == std::string_view::npos || at + needle.size() > text.size()) return std::string_view::npos;
            const auto span = span_holding(masked.begin(), masked.end(), at);
            if (span == masked.end()) return at;
            from = span->second;
        }
    };

    // Started inside reasoning: a closer before any opener of any pair (guess), or the
    // first closer wherever it stands (inside), or never (outside).
    const ReasoningStart start = ctx.settings().reasoning_start;
    std::size_t first_open = std::string_view::npos;
    if (start == ReasoningStart::guess)
        for (const auto& d : pairs)
            if (!d.open.empty()) first_open = std::min(first_open, find(d.open, 0));
    std::size_t pos = 0;
    std::size_t best_close = std::string_view::npos;
    const Delimiters* headless = nullptr;
    for (const auto& d : pairs) {
        if (d.close.empty() || !d.implicit_open || start == ReasoningStart::outside) continue;
        const std::size_t c = find(d.close, 0);
        if (c != std::string_view::npos && c < first_open && c < best_close) {
            best_close = c;
            headless = &d;
        }
    }
    if (headless) {
        out.push_back({0, best_close + headless->close.size(), 0, best_close, true});
        pos = best_close + headless->close.size();
    } else if (start == ReasoningStart::inside) {
        out.push_back({0, text.size(), 0, text.size(), false});  // never closed: all reasoning
        return out;
    }

    while (pos < text.size()) {
        std::size_t open_at = std::string_view::npos;
        const Delimiters* which = nullptr;
        for (const auto& d : pairs) {
            if (d.open.empty()) continue;
            const std::size_t o = find(d.open, pos);
            if (o != std::string_view::npos && o < open_at && o < text.size()) {
                open_at = o;
                which = &d;
            }
        }
        if (!which) break;
        const std::size_t inner = open_at + which->open.size();
        std::size_t close_at = find(which->close, inner);
        if (close_at == std::string_view::npos || close_at >= text.size()) {
            out.push_back({open_at, text.size(), inner, text.size(), false});  // never closed: to the end
            break;
        }
        out.push_back({open_at, close_at + which->close.size(), inner, close_at, true});
        pos = close_at + which->close.size();
    }
    return out;
}

// A fence line holds ``` or ~~~: the lines visited are those holding one of them (found
// through the scan context, so through the marker index in a one-shot parse), not every
// line of the text. Each line is read once.
std::vector<Region> find_fences(ScanContext& ctx, std::size_t limit) {
    std::vector<Region> out;
    const std::string_view text = ctx.text().substr(0, limit);
    bool open = false;
    char open_ch = 0;
    std::size_t open_length = 0;
    Region current;
    std::size_t decided = 0;  // lines before this were looked at
    auto next = [&](std::size_t from) {
        const std::size_t a = ctx.find("```", from), b = ctx.find("~~~", from);
        return std::min(a, b);
    };
    for (std::size_t at = next(0); at != std::string_view::npos && at + 3 <= text.size(); at = next(std::max(at + 1, decided))) {
        if (at < decided) continue;
        std::size_t line = at;
        while (line > 0 && at - line < 3 && text[line - 1] == ' ') --line;
        if (line > 0 && text[line - 1] != '\n') continue;  // not at the start of its line
        std::size_t eol = text.find('\n', at);
        if (eol == std::string_view::npos) eol = text.size();
        decided = eol + 1;
        FenceLine fl;
        fl.add(text.substr(line, eol - line));
        if (!open && fl.opens()) {
            current.outer_begin = line;
            current.inner_begin = std::min(eol + 1, text.size());
            open = true;
            open_ch = fl.ch();
            open_length = fl.length();
        } else if (open && fl.closes(open_ch, open_length)) {
            current.inner_end = line;
            // A closing fence is only its run; a following newline stays outside.
            current.outer_end = eol;
            current.closed = true;
            out.push_back(current);
            open = false;
        }
    }
    if (open) {
        current.inner_end = text.size();
        current.outer_end = text.size();
        current.closed = false;
        out.push_back(current);
    }
    return out;
}

bool fence_only_wraps(std::string_view text, const Region& f, std::size_t begin, std::size_t end) {
    if (f.inner_begin > begin) return false;
    const std::string_view inside_before = text.substr(f.inner_begin, begin - f.inner_begin);
    const std::string_view inside_after = end <= f.inner_end ? text.substr(end, f.inner_end - end) : std::string_view{};
    return inside_before.find_first_not_of(" \t\r\n") == std::string_view::npos &&
           inside_after.find_first_not_of(" \t\r\n`~") == std::string_view::npos;
}

const Region* region_at(const std::vector<Region>& regions, std::size_t pos) {
    // Regions come sorted and disjoint: a binary search keeps this logarithmic, since it
    // runs once per block and an output may hold tens of thousands of each.
    auto it = std::upper_bound(regions.begin(), regions.end(), pos,
                               [](std::size_t p, const Region& r) { return p < r.outer_begin; });
    if (it == regions.begin()) return nullptr;
    --it;
    return it->contains(pos) ? &*it : nullptr;
}

namespace {

// Lead-ins that introduce an example. `strong` ones do so anywhere; the others only before
// a fenced snippet ("such as Zürich" before a real call is not an example). Lower case
// (ASCII, Latin-1 and Cyrillic letters are folded before matching; the scripts without
// case are matched as written). A phrase that starts with an ASCII letter matches only at
// the start of a word.
struct LeadIn {
    std::string_view text;
    bool strong;
};
constexpr LeadIn lead_ins[] = {
    // English
    {"for example", true}, {"for instance", true}, {"e.g.", true}, {"example:", true}, {"an example", true},
    {"example of", true}, {"you could call", true}, {"you can call", true}, {"you would call", true},
    {"you might call", true},
    {"such as", false}, {"would look like", false}, {"looks like this", false}, {"like so:", false},
    // Chinese (simplified and traditional)
    {"例如", true}, {"比如", true}, {"举例", true}, {"舉例", true}, {"示例", true}, {"范例", true}, {"範例", true},
    {"例子", true}, {"譬如", true}, {"样例", true}, {"樣例", true}, {"例：", true}, {"例:", true},
    {"如下所示", false}, {"类似这样", false}, {"類似這樣", false}, {"看起来像这样", false},
    // Spanish
    {"por ejemplo", true}, {"ejemplo:", true}, {"un ejemplo", true}, {"ejemplo de", true}, {"p. ej.", true},
    {"podrías llamar", true}, {"podría llamar", true}, {"puedes llamar", true}, {"puede llamar", true},
    {"se vería así", false}, {"se ve así", false},
    // French
    {"par exemple", true}, {"exemple :", true}, {"exemple:", true}, {"un exemple", true}, {"exemple de", true},
    {"p. ex.", true}, {"vous pourriez appeler", true}, {"vous pouvez appeler", true}, {"tu pourrais appeler", true},
    {"tu peux appeler", true},
    {"ressemblerait à ceci", false}, {"ressemble à ceci", false},
    // German
    {"zum beispiel", true}, {"z. b.", true}, {"z.b.", true}, {"beispiel:", true}, {"ein beispiel", true},
    {"beispielsweise", true}, {"beispiel für", true}, {"beispielaufruf", true},
    {"sieht so aus", false}, {"würde so aussehen", false},
    // Japanese
    // (Not a bare "の例": it begins "の例外", an exception; "サンプル" names sample data too.)
    {"例えば", true}, {"たとえば", true}, {"例として", true}, {"の例：", true}, {"の例:", true}, {"の例です", true},
    {"例を示", true}, {"例を挙げ", true}, {"使用例", true}, {"呼び出し例", true},
    {"サンプル", false}, {"のようになります", false},
    // Portuguese
    {"por exemplo", true}, {"exemplo:", true}, {"um exemplo", true}, {"exemplo de", true},
    {"você poderia chamar", true}, {"você pode chamar", true},
    {"ficaria assim", false},
    // Russian and Ukrainian
    {"например", true}, {"пример:", true}, {"пример ", true}, {"к примеру", true}, {"для примера", true},
    {"в качестве примера", true}, {"наприклад", true}, {"приклад:", true},
    {"выглядит так", false}, {"выглядел бы так", false},
    // Korean
    {"예를 들어", true}, {"예를 들면", true}, {"예시", true}, {"예제", true}, {"예컨대", true},
    {"다음과 같은 형태", false},
    // Italian, Dutch, Polish, Turkish, Vietnamese, Indonesian, Arabic, Hindi
    {"per esempio", true}, {"ad esempio", true}, {"esempio:", true}, {"un esempio", true},
    {"bijvoorbeeld", true}, {"voorbeeld:", true}, {"een voorbeeld", true},
    {"na przykład", true}, {"przykład:", true},
    {"örneğin", true}, {"örnek:", true},
    {"ví dụ", true},
    {"misalnya", true}, {"contoh:", true}, {"sebagai contoh", true},
    {"على سبيل المثال", true}, {"مثال:", true},
    {"उदाहरण", true},
};

// Sentences that disown the example they follow (disowned_after_fence): it only showed the
// format, it is not a real call. Lower case, matched as the lead-ins are. Each says so
// outright: a sentence that merely follows a call ("Done.", "I'll wait for the result")
// must never match, since a match refuses the call.
constexpr LeadIn disowners[] = {
    // English
    {"not a real call", true}, {"not an actual call", true}, {"not a real tool call", true},
    {"not an actual tool call", true}, {"not a real function call", true}, {"not a real invocation", true},
    {"only shows the format", true}, {"just shows the format", true}, {"only to show the format", true},
    {"just to show the format", true}, {"only an example", true}, {"just an example", true},
    {"merely an example", true}, {"for illustration only", true}, {"for illustration purposes", true},
    {"illustrative only", true}, {"was not actually called", true}, {"is not actually called", true},
    // Chinese (simplified and traditional)
    {"展示格式", true}, {"演示格式", true}, {"不是真实调用", true}, {"不是真實調用", true}, {"不是真正的调用", true},
    {"不是真正的調用", true}, {"并非真实调用", true}, {"並非真實調用", true}, {"非真实调用", true}, {"非真實調用", true},
    {"不是实际调用", true}, {"不是實際調用", true}, {"仅为示例", true}, {"僅為示例", true}, {"只是示例", true},
    {"只是一个示例", true}, {"只是一個示例", true}, {"只是例子", true}, {"只是举例", true}, {"只是舉例", true},
    // Spanish
    {"no es una llamada real", true}, {"solo es un ejemplo", true}, {"sólo es un ejemplo", true},
    {"es solo un ejemplo", true}, {"es sólo un ejemplo", true}, {"solo muestra el formato", true},
    {"sólo muestra el formato", true},
    // French
    {"pas un appel réel", true}, {"pas un vrai appel", true}, {"qu'un exemple", true}, {"juste un exemple", true},
    {"seulement un exemple", true}, {"montre seulement le format", true}, {"montre juste le format", true},
    // German
    {"kein echter aufruf", true}, {"kein tatsächlicher aufruf", true}, {"nur ein beispiel", true},
    {"zeigt nur das format", true}, {"nur zur veranschaulichung", true},
    // Japanese
    {"実際の呼び出しではありません", true}, {"実際の呼び出しではない", true}, {"形式を示すだけ", true},
    {"形式を示したもの", true}, {"あくまで例", true}, {"単なる例", true},
    // Portuguese
    {"não é uma chamada real", true}, {"apenas um exemplo", true}, {"só um exemplo", true},
    {"mostra apenas o formato", true},
    // Russian and Ukrainian
    {"не настоящий вызов", true}, {"не реальный вызов", true}, {"просто пример", true}, {"лишь пример", true},
    {"только пример", true}, {"лише приклад", true}, {"не справжній виклик", true},
    // Korean
    {"실제 호출이 아닙니다", true}, {"실제 호출이 아님", true}, {"예시일 뿐", true}, {"형식만 보여", true},
    // Italian, Dutch, Polish, Turkish, Vietnamese, Indonesian, Arabic, Hindi
    {"non è una chiamata reale", true}, {"non è una vera chiamata", true}, {"solo un esempio", true},
    {"geen echte aanroep", true}, {"slechts een voorbeeld", true}, {"alleen een voorbeeld", true},
    {"nie jest prawdziwym wywołaniem", true}, {"tylko przykład", true},
    {"gerçek bir çağrı değil", true}, {"sadece bir örnek", true}, {"yalnızca bir örnek", true},
    {"không phải lệnh gọi thật", true}, {"không phải là lệnh gọi thực", true}, {"chỉ là ví dụ", true},
    {"bukan panggilan sebenarnya", true}, {"hanya contoh", true},
    {"ليس استدعاء حقيقي", true}, {"مجرد مثال", true},
    {"वास्तविक कॉल नहीं", true}, {"केवल एक उदाहरण", true}, {"सिर्फ एक उदाहरण", true},
};

// A phrase table by first byte, so a text is read in one pass, and a bit for each pair
// of bytes some phrase begins with: a byte that starts no phrase with the byte after it
// (nearly all of them) costs one bit's look-up. The pair, not the byte: a text's common
// letters each begin phrases of several languages, and walking those per byte was most
// of a short output's look for lead-ins.
template <std::size_t N>
struct PhraseIndex {
    const LeadIn* phrases;
    std::array<std::uint8_t, 256> first{};  // 1 + the first phrase with this first byte, or 0
    std::array<std::uint8_t, N> next{};     // 1 + the next phrase with the same first byte, or 0
    std::array<std::uint64_t, 65536 / 64> pairs{};  // bit (first byte << 8 | second byte)
    explicit PhraseIndex(const LeadIn (&table)[N]) : phrases(table) {
        static_assert(N < 255);
        for (std::size_t i = N; i-- > 0;) {
            const auto b = static_cast<unsigned char>(table[i].text[0]);
            next[i] = first[b];
            first[b] = static_cast<std::uint8_t>(i + 1);
            // A phrase of one byte begins with every pair that byte begins.
            if (table[i].text.size() == 1)
                for (unsigned second = 0; second < 256; ++second) set(b, second);
            else
                set(b, static_cast<unsigned char>(table[i].text[1]));
        }
    }
    void set(unsigned a, unsigned b) { pairs[(a << 8 | b) / 64] |= std::uint64_t{1} << ((a << 8 | b) % 64); }
    // Whether a phrase may begin with `a` then `b` (b: 0 past the text's end, which no
    // phrase's second byte is).
    bool may_begin(unsigned char a, unsigned char b) const {
        const unsigned k = static_cast<unsigned>(a) << 8 | b;
        return (pairs[k / 64] >> (k % 64) & 1) != 0;
    }
};

bool ascii_alnum(char c) { return is_alpha(c) || is_digit(c); }

constexpr std::size_t window_size = 240;

// `text` lower-cased into `out` (at most window_size bytes): ASCII, Latin-1 (U+00C0–U+00DE)
// and Cyrillic (U+0400–U+042F) capitals, each to its small letter of the same length. On
// the stack: a call every few bytes (hostile input) runs this per call, and std::tolower
// asks the locale at every byte.
std::string_view fold(std::string_view text, char* out) {
    const std::size_t n = std::min(text.size(), window_size);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        out[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : static_cast<char>(c);
        if (c < 0xC3 || i + 1 >= n) continue;
        const auto d = static_cast<unsigned char>(text[i + 1]);
        if (c == 0xC3 && d >= 0x80 && d <= 0x9E && d != 0x97) {
            out[i + 1] = static_cast<char>(d + 0x20);  // À … Þ (not ×)
        } else if (c == 0xD0 && d >= 0x90 && d <= 0x9F) {
            out[i + 1] = static_cast<char>(d + 0x20);  // А … П
        } else if (c == 0xD0 && d >= 0xA0 && d <= 0xAF) {
            out[i] = static_cast<char>(0xD1);  // Р … Я
            out[i + 1] = static_cast<char>(d - 0x20);
        } else if (c == 0xD0 && d >= 0x80 && d <= 0x8F) {
            out[i] = static_cast<char>(0xD1);  // Ѐ … Џ
            out[i + 1] = static_cast<char>(d + 0x10);
        } else {
            out[i + 1] = static_cast<char>(d);
        }
        ++i;
    }
    return {out, n};
}

struct LeadInFound {
    bool strong = false, weak = false;
    std::size_t strong_end = 0;  // where the last strong phrase ends in the lead
};

// The phrases of `index` in `lead` (folded already).
template <std::size_t N>
LeadInFound find_phrases(const PhraseIndex<N>& index, std::string_view lead) {
    LeadInFound found;
    for (std::size_t i = 0; i < lead.size(); ++i) {
        const auto after = static_cast<unsigned char>(i + 1 < lead.size() ? lead[i + 1] : '\0');
        if (!index.may_begin(static_cast<unsigned char>(lead[i]), after)) continue;
        for (std::size_t k = index.first[static_cast<unsigned char>(lead[i])]; k != 0; k = index.next[k - 1]) {
            const LeadIn& p = index.phrases[k - 1];
            // The second byte first: phrases of many languages share a first byte, and a
            // call's window is read before every call, so a library compare per phrase and
            // byte was most of a call-dense parse.
            if (p.text.size() > 1 && (i + 1 >= lead.size() || lead[i + 1] != p.text[1])) continue;
            if (lead.compare(i, p.text.size(), p.text) != 0) continue;
            if (ascii_alnum(p.text[0]) && i > 0 && ascii_alnum(lead[i - 1])) continue;
            if (p.strong) {
                found.strong = true;
                found.strong_end = std::max(found.strong_end, i + p.text.size());
            } else {
                found.weak = true;
            }
        }
    }
    return found;
}

// The lead-ins in `lead` (folded already).
LeadInFound find_lead_ins(std::string_view lead) {
    static const PhraseIndex index(lead_ins);
    return find_phrases(index, lead);
}

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Whether a line (folded, trimmed) ends introducing what follows: with a colon, or with a
// lead-in phrase itself ("For example", "例如，").
bool ends_introducing(std::string_view line, const LeadInFound& found) {
    static constexpr std::string_view colons[] = {":", "\xEF\xBC\x9A" /* ： */};
    for (auto c : colons)
        if (line.size() >= c.size() && line.compare(line.size() - c.size(), c.size(), c) == 0) return true;
    // After the phrase, only punctuation: , . ， 、 。 …
    std::string_view rest = line.substr(std::min(found.strong_end, line.size()));
    static constexpr std::string_view marks[] = {",", ".", ";", "\xEF\xBC\x8C", "\xE3\x80\x81", "\xE3\x80\x82", "\xE2\x80\xA6"};
    for (;;) {
        while (!rest.empty() && blank(rest.front())) rest.remove_prefix(1);
        if (rest.empty()) return true;
        bool cut = false;
        for (auto m : marks)
            if (rest.substr(0, m.size()) == m) {
                rest.remove_prefix(m.size());
                cut = true;
                break;
            }
        if (!cut) return false;
    }
}

}  // namespace

std::vector<std::pair<std::string_view, bool>> example_lead_ins() {
    std::vector<std::pair<std::string_view, bool>> all;
    for (const LeadIn& p : lead_ins) all.emplace_back(p.text, p.strong);
    return all;
}

std::vector<std::string_view> example_disowners() {
    std::vector<std::string_view> all;
    for (const LeadIn& p : disowners) all.push_back(p.text);
    return all;
}

std::optional<bool> disowned_after_fence(std::string_view text, const Region& f, const std::vector<std::string>& markers,
                                         bool at_end) {
    std::array<bool, 256> first{};
    for (const auto& m : markers)
        if (!m.empty()) first[static_cast<unsigned char>(m[0])] = true;
    auto marker_at = [&](std::size_t i) {
        if (!first[static_cast<unsigned char>(text[i])]) return false;
        for (const auto& m : markers)
            if (!m.empty() && text.compare(i, m.size(), m) == 0) return true;
        return false;
    };
    if (!f.closed || f.outer_end > text.size()) return at_end ? std::optional<bool>(false) : std::nullopt;
    // Blank lines skipped (the paragraph after the fence, as the lead-in is the one before
    // it), then one line; both within the window, so a stream's look costs a constant.
    std::size_t pos = f.outer_end;
    const std::size_t stop = std::min(text.size(), pos + window_size);
    while (pos < stop && blank(text[pos])) ++pos;
    if (pos == text.size()) return at_end ? std::optional<bool>(false) : std::nullopt;
    if (pos == stop) return false;  // a window of blanks: nothing right after the fence
    std::size_t end = pos;
    while (end < stop && text[end] != '\n' && !marker_at(end)) ++end;
    if (end == text.size() && !at_end) return std::nullopt;  // the line may go on
    static const PhraseIndex index(disowners);
    char folded[window_size];
    return find_phrases(index, fold(text.substr(pos, end - pos), folded)).strong;
}

bool introduced_as_example(std::string_view text, std::size_t pos, const std::vector<Region>& fences,
                           std::size_t floor) {
    const Region* fence = region_at(fences, pos);
    std::size_t stop = fence ? fence->outer_begin : pos;
    // Every call of a fence has the fence's lead-in, whatever blocks stand before it there.
    if (fence) floor = 0;
    // A fence's lead-in is the paragraph before it, even across a blank line; an unfenced
    // call's lead-in is the text before it on its own line.
    if (fence)
        while (stop > 0 && blank(text[stop - 1])) --stop;
    if (stop <= floor) return false;  // right after the block before: nothing introduces it
    // Searching only a bounded window keeps this constant per call (linear over all blocks).
    std::size_t from = std::max(floor, stop > window_size ? stop - window_size : 0);
    const std::string_view window = text.substr(from, stop - from);
    const std::size_t brk = fence ? window.rfind("\n\n") : window.rfind('\n');
    if (brk != std::string_view::npos) from += brk + (fence ? 2 : 1);
    char folded[window_size];
    const LeadInFound found = find_lead_ins(fold(text.substr(from, stop - from), folded));
    if (found.strong || (fence && found.weak)) return true;
    if (fence) return false;
    // A call that starts its line: the line before (blank lines skipped) is its lead-in when
    // it ends introducing it ("Here is an example:", "例如：").
    if (text.substr(from, stop - from).find_first_not_of(" \t\r") != std::string_view::npos) return false;
    std::size_t end = from;
    while (end > floor && from - end <= window_size && blank(text[end - 1])) --end;
    if (end <= floor || from - end > window_size) return false;
    std::size_t begin = std::max(floor, end > window_size ? end - window_size : 0);
    if (const std::size_t nl = text.substr(begin, end - begin).rfind('\n'); nl != std::string_view::npos) begin += nl + 1;
    const std::string_view line = fold(text.substr(begin, end - begin), folded);
    const LeadInFound before = find_lead_ins(line);
    return before.strong && ends_introducing(line, before);
}

}  // namespace toolgram::detail
