// The Python module `toolgram._toolgram`: the C++ library's public API (Parser, Result,
// StreamParser, profiles, instructions) and coverage reports, as Python objects. The
// package around it (python/toolgram/) adds the OpenAI stream shapes, the serving-engine
// adapters and the Dask path, in plain Python.
//
// What crosses the boundary, and how:
//  - JSON values become Python dicts, lists, str, int, float, bool and None, and back.
//    Python data coming in is bounded like a file (a depth of 256, as json_document.hpp
//    bounds documents, and the file's size counted per visit) so a cyclic, absurdly deep
//    or endlessly shared structure is a ValueError, never a stack overflow or gigabytes.
//  - Text the model wrote is kept as bytes in C++; it becomes `str` with any invalid UTF-8
//    replaced by U+FFFD, as the CLI's JSON output does. Input may be `str` or `bytes`.
//  - Parsing and streaming release the GIL. A Parser is immutable once built, so one may
//    be shared by any number of threads; a StreamParser is one stream and serialises its
//    own calls.
//  - Errors are the CLI's messages: ProfileError, ToolsError and SettingsError (all
//    ValueError) for what a caller gave; a tool whose schema cannot be used is a
//    ToolSchemaWarning, its calls refused, as `toolgram parse` tells it on stderr.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/bounded_read.hpp"
#include "cli/jobs.hpp"
#include "coverage_bridge.hpp"
#include "value/json_document.hpp"
#include "io/json_writer.hpp"
#include "profiles/profile_file.hpp"
#include "text/utf8.hpp"
#include "toolgram/toolgram.hpp"

namespace py = pybind11;
using toolgram::json;

namespace {

constexpr int max_python_depth = 256;  // as documents are bounded (json_document.hpp)

// ---------------------------------------------------------------------------------------
// Values across the boundary.

py::str text_of(std::string_view s) {
    PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
    if (!o) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(o);
}

// The depth of a json value is bounded where it was made (limits.max_depth for arguments,
// the document limit for files), so this recursion is too.
py::object to_python(const json& j) {
    switch (j.type()) {
        case json::value_t::null: return py::none();
        case json::value_t::boolean: return py::bool_(j.get<bool>());
        case json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
        case json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
        case json::value_t::number_float: return py::float_(j.get<double>());
        case json::value_t::string: return text_of(j.get_ref<const std::string&>());
        case json::value_t::array: {
            py::list out(j.size());
            for (std::size_t i = 0; i < j.size(); ++i) out[i] = to_python(j[i]);
            return out;
        }
        case json::value_t::object: {
            py::dict out;
            for (auto it = j.begin(); it != j.end(); ++it) out[text_of(it.key())] = to_python(it.value());
            return out;
        }
        default: return py::none();  // binary and discarded: never made by toolgram
    }
}

struct TooDeep {};
struct TooLarge {};

// Python data is bounded like the file it stands for, by depth and by size. Depth alone
// does not bound it: a list holding the same sub-list twice, 30 levels deep, is 2^30 leaves
// once expanded, and a list subclass whose iterator never ends has no depth at all. So each
// value visited costs one unit and each string its length, against a budget the size of
// the largest file of the same kind (document_limit(): a tools or profile file).
struct Budget {
    std::size_t left;
    std::string why;  // the limit's name, for the message
    void spend(std::size_t units) {
        if (units > left) throw TooLarge{};
        left -= units;
    }
};

// A str as UTF-8. A lone surrogate (from surrogateescape, or "\ud800" written out) has no
// UTF-8 form: in a tool list or settings it is refused, as a file holding it would be.
std::string utf8_of(py::handle str, const char* what) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(str.ptr(), &size);
    if (!data) {
        PyErr_Clear();
        throw py::value_error(std::string(what) + ": a str holding a lone surrogate, which is not text (no UTF-8 form)");
    }
    return std::string(data, static_cast<std::size_t>(size));
}

json from_python(py::handle h, int depth, const char* what, Budget& budget) {
    if (depth > max_python_depth) throw TooDeep{};
    budget.spend(1);
    if (h.is_none()) return nullptr;
    if (py::isinstance<py::bool_>(h)) return h.cast<bool>();
    if (py::isinstance<py::int_>(h)) {
        // Beyond 64 bits a JSON number keeps its value as a double, as a parser would;
        // beyond a double's range (10**400) it is no JSON number toolgram can hold.
        try {
            return h.cast<std::int64_t>();
        } catch (const py::cast_error&) {
            try {
                return h.cast<std::uint64_t>();
            } catch (const py::cast_error&) {
                const double d = PyLong_AsDouble(h.ptr());
                if (d == -1.0 && PyErr_Occurred()) {
                    PyErr_Clear();
                    throw py::value_error(std::string(what) +
                                          ": an int past the largest JSON number toolgram holds (a double, about 1.8e308)");
                }
                return d;
            }
        }
    }
    if (py::isinstance<py::float_>(h)) {
        const double d = h.cast<double>();
        if (!std::isfinite(d)) throw py::value_error(std::string(what) + ": NaN and infinity are not JSON numbers");
        return d;
    }
    if (py::isinstance<py::str>(h)) {
        std::string text = utf8_of(h, what);
        budget.spend(text.size());
        return text;
    }
    if (py::isinstance<py::dict>(h)) {
        json out = json::object();
        for (auto item : py::reinterpret_borrow<py::dict>(h)) {
            if (!py::isinstance<py::str>(item.first))
                throw py::type_error(std::string(what) + ": object keys must be str, got " +
                                     std::string(py::str(py::type::handle_of(item.first).attr("__name__"))));
            std::string key = utf8_of(item.first, what);
            budget.spend(key.size());
            // Two keys Python holds apart (a str subclass with its own __eq__) may be one
            // key as text: keeping the last would let `rm_rf` replace `get_weather` unseen.
            // Refused as a file's key given twice is (json_document.hpp).
            if (out.contains(key))
                throw py::value_error(std::string(what) + ": the key \"" + toolgram::detail::excerpt(key) +
                                      "\" is given twice");
            out[std::move(key)] = from_python(item.second, depth + 1, what, budget);
        }
        return out;
    }
    if (py::isinstance<py::list>(h) || py::isinstance<py::tuple>(h)) {
        json out = json::array();
        for (auto item : h) out.push_back(from_python(item, depth + 1, what, budget));
        return out;
    }
    throw py::type_error(std::string(what) + ": " + std::string(py::str(py::type::handle_of(h).attr("__name__"))) +
                         " is not a JSON value (dict, list, str, int, float, bool or None)");
}

Budget document_budget() {
    const auto limit = toolgram::detail::document_limit();
    return {limit.bytes, limit.why};
}

// A JSON value from Python data, or from JSON text (a str) read by the bounded document
// reader, as the CLI reads a file. `budget` is shared by the values of one call (the
// records of one coverage call), so many values cannot add up past it either.
json json_argument(py::handle h, const char* what, Budget& budget) {
    try {
        if (py::isinstance<py::str>(h)) {
            const std::string text = utf8_of(h, what);
            budget.spend(text.size());
            toolgram::detail::DocumentRead doc = toolgram::detail::read_json_document(text);
            if (doc.error) throw py::value_error(std::string(what) + ": " + doc.error->message);
            return std::move(doc.value);
        }
        return from_python(h, 0, what, budget);
    } catch (const TooDeep&) {
        throw py::value_error(std::string(what) + ": nested deeper than " + std::to_string(max_python_depth) +
                              " levels (or a structure that contains itself)");
    } catch (const TooLarge&) {
        throw py::value_error(std::string(what) + ": larger than " + budget.why +
                              " allows, counting each value once per place it appears (a structure sharing its "
                              "parts, or one that never ends, counts every visit)");
    }
}

json json_argument(py::handle h, const char* what) {
    Budget budget = document_budget();
    return json_argument(h, what, budget);
}

// ---------------------------------------------------------------------------------------
// Errors, as the CLI words them.

py::object profile_error, tools_error, settings_error, tool_schema_warning;

[[noreturn]] void raise(const py::object& type, const std::string& message) {
    PyErr_SetString(type.ptr(), message.c_str());
    throw py::error_already_set();
}

// A tools or settings argument as JSON, then `use`d; a value that is no JSON, or that `use`
// refuses (std::invalid_argument), raises `error` with the message (`prefix` before the
// library's own, which does not name the argument).
template <class Use>
auto checked_argument(const py::object& value, const char* what, const py::object& error, const char* prefix, Use use) {
    json j;
    try {
        j = json_argument(value, what);
    } catch (const py::value_error& e) {
        raise(error, e.what());
    }
    try {
        return use(j);
    } catch (const std::invalid_argument& e) {
        raise(error, prefix + std::string(e.what()));
    }
}

// None: no tool list (any name, nothing validated); a list, even empty: only its tools.
std::optional<std::vector<toolgram::Tool>> tools_argument(const py::object& tools) {
    if (tools.is_none()) return std::nullopt;
    return checked_argument(tools, "tools", tools_error, "tools: ", [](const json& j) { return toolgram::tools_from_json(j); });
}

toolgram::Profile profile_argument(const std::optional<std::string>& name, const py::object& file) {
    if (name && !file.is_none()) raise(profile_error, "profile and profile_file both name a profile: give one");
    if (!file.is_none()) {
        const std::string path = py::str(py::module_::import("os").attr("fspath")(file));
        try {
            // The read may wait (a FIFO with no writer yet, a slow network file system):
            // other Python threads run meanwhile.
            py::gil_scoped_release unlocked;
            return toolgram::load_profile_file(path);
        } catch (const std::invalid_argument& e) {
            raise(profile_error, std::string("profile file ") + e.what());
        }
    }
    try {
        return toolgram::builtin_profile(name.value_or("auto"));
    } catch (const std::invalid_argument& e) {
        raise(profile_error, e.what());
    }
}

void apply_settings(toolgram::Profile& p, const py::object& settings) {
    if (settings.is_none()) return;
    checked_argument(settings, "settings", settings_error, "", [&](const json& j) {
        toolgram::apply_input_settings(p, j);
        return 0;
    });
}

// ---------------------------------------------------------------------------------------
// Results.

struct PyCall {
    toolgram::Call call;

    py::dict to_dict() const {
        py::dict d;
        d["id"] = text_of(call.id);
        d["name"] = text_of(call.name);
        d["arguments"] = to_python(call.arguments);
        if (call.healed) d["healed"] = true;
        return d;
    }
};

// A parse's result. Held whole; each property is made when asked for.
struct PyResult {
    std::shared_ptr<const toolgram::Result> r;

    py::list calls() const {
        py::list out;
        for (const auto& c : r->calls) out.append(py::cast(PyCall{c}));
        return out;
    }
    // The result's json without its calls, content and reasoning: telemetry and error are
    // what is asked for, and content may be megabytes, which to_json would copy.
    json telemetry_and_error() const {
        toolgram::Result t;
        t.telemetry = r->telemetry;
        t.error = r->error;
        return toolgram::to_json(std::move(t));
    }
    py::object error() const { return r->error ? to_python(telemetry_and_error()["error"]) : py::none(); }
};

struct PyEvent {
    toolgram::StreamEvent e;
    std::size_t openai_index = 0;  // see PyStream

    const char* kind() const {
        using K = toolgram::StreamEvent::Kind;
        switch (e.kind) {
            case K::content: return "content";
            case K::reasoning: return "reasoning";
            case K::call_begin: return "call_begin";
            case K::call_arguments: return "call_arguments";
            case K::call_end: return "call_end";
            case K::format_error: return "format_error";
        }
        return "content";
    }

    // The delta of an OpenAI chat.completion.chunk choice, or None when this event has
    // nothing to send in that protocol (a call's end; a format error).
    py::object to_openai() const {
        using K = toolgram::StreamEvent::Kind;
        py::dict d;
        switch (e.kind) {
            case K::content: d["content"] = text_of(e.text); return d;
            case K::reasoning: d["reasoning_content"] = text_of(e.text); return d;
            case K::call_begin: {
                py::dict fn;
                fn["name"] = text_of(e.name);
                fn["arguments"] = "";
                py::dict call;
                call["index"] = openai_index;
                call["id"] = text_of(e.id);
                call["type"] = "function";
                call["function"] = fn;
                py::list calls;
                calls.append(call);
                d["tool_calls"] = calls;
                return d;
            }
            case K::call_arguments: {
                py::dict fn;
                fn["arguments"] = text_of(e.text);
                py::dict call;
                call["index"] = openai_index;
                call["function"] = fn;
                py::list calls;
                calls.append(call);
                d["tool_calls"] = calls;
                return d;
            }
            default: return py::none();
        }
    }
};

// ---------------------------------------------------------------------------------------
// Parser and stream.

struct PyParser {
    std::shared_ptr<const toolgram::Parser> p;
};

// One stream. OpenAI's protocol cannot take a call back, so its index there is the count of
// calls announced before it (`openai_index`), never reused: a call refused after it was
// announced keeps its slot, and the next call does not land on top of it.
struct PyStream {
    std::shared_ptr<const toolgram::Parser> parser;  // outlives the stream, as it must
    std::unique_ptr<toolgram::StreamParser> stream;
    std::mutex mutex;  // one stream, fed from whichever thread: its calls take turns
    std::size_t announced = 0;
    bool finished = false;

    py::list events_of(std::vector<toolgram::StreamEvent>&& events) {
        py::list out;
        for (auto& e : events) {
            PyEvent pe{std::move(e), 0};
            if (pe.e.kind == toolgram::StreamEvent::Kind::call_begin) ++announced;
            if (pe.e.kind == toolgram::StreamEvent::Kind::call_begin ||
                pe.e.kind == toolgram::StreamEvent::Kind::call_arguments ||
                pe.e.kind == toolgram::StreamEvent::Kind::call_end)
                pe.openai_index = announced == 0 ? 0 : announced - 1;
            out.append(py::cast(std::move(pe)));
        }
        return out;
    }
};

py::bytes bytes_of(py::handle text) {
    if (py::isinstance<py::bytes>(text)) return py::reinterpret_borrow<py::bytes>(text);
    if (py::isinstance<py::str>(text)) {
        // Parsing never raises on any text. A str holding a lone surrogate (a model's bytes
        // decoded with surrogateescape, a broken pair cut by a tokenizer) has no UTF-8 form:
        // surrogatepass writes it as the three bytes UTF-8 would give it, which are invalid
        // UTF-8, and the parser treats them as the CLI treats any invalid UTF-8 (kept in
        // content, read back as U+FFFD).
        PyObject* b = PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogatepass");
        if (!b) throw py::error_already_set();
        return py::reinterpret_steal<py::bytes>(b);
    }
    throw py::type_error("text must be str or bytes, got " + std::string(py::str(py::type::handle_of(text).attr("__name__"))));
}

// ---------------------------------------------------------------------------------------
// Coverage.

struct PyReport {
    toolgram::python::ReportPtr report;
};

// As the CLI's --jobs (src/cli/jobs.hpp): every core by default.
unsigned jobs_argument(const std::optional<int>& jobs) {
    if (!jobs) return toolgram::cli::default_jobs();
    if (*jobs < 1 || *jobs > static_cast<int>(toolgram::cli::max_jobs))
        throw py::value_error("jobs must be from 1 to " + std::to_string(toolgram::cli::max_jobs));
    return static_cast<unsigned>(*jobs);
}

}  // namespace

PYBIND11_MODULE(_toolgram, m) {
    m.doc() = "toolgram's C++ core: tool calls from the raw text an LLM writes, by grammar, validated by schema.";

    py::object base = py::reinterpret_borrow<py::object>(PyExc_ValueError);
    py::object error_base = py::reinterpret_steal<py::object>(
        PyErr_NewExceptionWithDoc("toolgram.ToolgramError", "Base of toolgram's errors.", base.ptr(), nullptr));
    m.attr("ToolgramError") = error_base;
    profile_error = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
        "toolgram.ProfileError", "An unknown profile name, or a profile file that cannot be read or used.",
        error_base.ptr(), nullptr));
    tools_error = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
        "toolgram.ToolsError", "Tools that are not OpenAI tools (or {name, parameters} objects).", error_base.ptr(),
        nullptr));
    settings_error = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
        "toolgram.SettingsError", "An unknown or ill-typed setting.", error_base.ptr(), nullptr));
    tool_schema_warning = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
        "toolgram.ToolSchemaWarning", "A tool whose parameters schema cannot be used: its calls are refused.",
        PyExc_UserWarning, nullptr));
    m.attr("ProfileError") = profile_error;
    m.attr("ToolsError") = tools_error;
    m.attr("SettingsError") = settings_error;
    m.attr("ToolSchemaWarning") = tool_schema_warning;

    py::class_<PyCall>(m, "Call", "A validated tool call.")
        .def_property_readonly("id", [](const PyCall& c) { return text_of(c.call.id); })
        .def_property_readonly("name", [](const PyCall& c) { return text_of(c.call.name); }, "The declared tool's name.")
        .def_property_readonly("arguments", [](const PyCall& c) { return to_python(c.call.arguments); },
                               "The arguments object, as a dict.")
        .def_property_readonly("arguments_json",
                               [](const PyCall& c) { return text_of(toolgram::detail::compact_json(c.call.arguments)); },
                               "The arguments as the JSON string OpenAI's tool_calls carry.")
        .def_property_readonly("healed", [](const PyCall& c) { return c.call.healed; },
                               "The output was cut off where the call's closers were due, and they were supplied.")
        .def("to_dict", &PyCall::to_dict)
        .def("__eq__", [](const PyCall& a, const PyCall& b) {
            return a.call.id == b.call.id && a.call.name == b.call.name && a.call.arguments == b.call.arguments &&
                   a.call.healed == b.call.healed;
        })
        .def("__repr__", [](const PyCall& c) {
            return "Call(name=" + std::string(py::repr(text_of(c.call.name))) + ", arguments=" +
                   c.call.arguments.dump(-1, ' ', false, json::error_handler_t::replace) + ")";
        });

    py::class_<PyResult>(m, "Result", "What a parse found: calls, content, reasoning, telemetry, and any format error.")
        .def_property_readonly("calls", &PyResult::calls, "The validated calls, in order.")
        .def_property_readonly("content", [](const PyResult& r) { return text_of(r.r->content); },
                               "Text outside tool syntax and reasoning.")
        .def_property_readonly("reasoning", [](const PyResult& r) { return text_of(r.r->reasoning); },
                               "Text of reasoning blocks.")
        .def_property_readonly("telemetry", [](const PyResult& r) { return to_python(r.telemetry_and_error()["telemetry"]); },
                               "How the result was reached: grammar, mode, every candidate and its verdict, rejections.")
        .def_property_readonly("error", &PyResult::error,
                               "Tool syntax that yielded no call: message, offset, line, column, expected, "
                               "correction_prompt; or None.")
        .def("to_dict", [](const PyResult& r) { return to_python(toolgram::to_json(*r.r)); },
             "The result as `toolgram parse` prints it.")
        .def("to_openai", [](const PyResult& r) { return to_python(toolgram::to_openai_message(*r.r)); },
             "An OpenAI chat-completion assistant message (tool_calls' arguments as JSON strings).")
        .def("__repr__", [](const PyResult& r) {
            return "Result(calls=" + std::to_string(r.r->calls.size()) + ", content=" +
                   std::to_string(r.r->content.size()) + " bytes, grammar=" + r.r->telemetry.grammar + ")";
        });

    py::class_<PyEvent>(m, "Event", "One thing a stream tells its client.")
        .def_property_readonly("kind", &PyEvent::kind,
                               "content, reasoning, call_begin, call_arguments, call_end or format_error.")
        .def_property_readonly("text", [](const PyEvent& e) { return text_of(e.e.text); },
                               "content, reasoning: the text; call_arguments: more of the arguments JSON.")
        .def_property_readonly("index", [](const PyEvent& e) { return e.e.index; },
                               "Call events: the call's place in the result's calls (a refused call's place is "
                               "taken by the next).")
        .def_property_readonly("openai_index", [](const PyEvent& e) { return e.openai_index; },
                               "Call events: the index to_openai() uses, never reused within a stream.")
        .def_property_readonly("id", [](const PyEvent& e) { return text_of(e.e.id); })
        .def_property_readonly("name", [](const PyEvent& e) { return text_of(e.e.name); })
        .def_property_readonly("call", [](const PyEvent& e) -> py::object {
            return e.e.call ? py::cast(PyCall{*e.e.call}) : py::none();
        }, "call_end: the validated call, or None when it was refused.")
        .def_property_readonly("rejection", [](const PyEvent& e) -> py::object {
            return e.e.kind == toolgram::StreamEvent::Kind::call_end && !e.e.call ? py::object(text_of(e.e.rejection))
                                                                                 : py::none();
        }, "call_end of a refused call: why.")
        .def_property_readonly("rejection_code", [](const PyEvent& e) -> py::object {
            return e.e.kind == toolgram::StreamEvent::Kind::call_end && !e.e.call
                       ? py::object(py::str(std::string(toolgram::to_string(e.e.rejection_code))))
                       : py::none();
        }, "call_end of a refused call: why, as a code (README, 'Telemetry'): unknown_tool, changed, ….")
        .def_property_readonly("error", [](const PyEvent& e) -> py::object {
            return e.e.error ? to_python(toolgram::to_json(e.e)["error"]) : py::none();
        })
        .def("to_dict", [](const PyEvent& e) { return to_python(toolgram::to_json(e.e)); },
             "The event as `toolgram stream` prints it.")
        .def("to_openai", &PyEvent::to_openai,
             "The delta of an OpenAI chat.completion.chunk choice ({'content': …}, {'reasoning_content': …}, "
             "{'tool_calls': [{'index', 'id', 'type', 'function': {'name', 'arguments'}}]}), or None when the "
             "event sends nothing there (a call's end, a format error).")
        .def("__repr__", [](const PyEvent& e) {
            return std::string("Event(") + e.kind() + ", " + std::string(py::repr(text_of(e.e.text))) + ")";
        });

    py::class_<PyParser>(m, "Parser",
                         "Parses model output into validated tool calls. Immutable once built: share one among "
                         "threads freely.")
        .def(py::init([](std::optional<std::string> profile, py::object profile_file, py::object tools,
                         py::object settings) {
                 toolgram::Profile p = profile_argument(profile, profile_file);
                 apply_settings(p, settings);
                 std::optional<std::vector<toolgram::Tool>> t = tools_argument(tools);
                 std::shared_ptr<const toolgram::Parser> parser;
                 try {
                     parser = t ? std::make_shared<const toolgram::Parser>(std::move(p), std::move(*t))
                                : std::make_shared<const toolgram::Parser>(std::move(p));
                 } catch (const std::invalid_argument& e) {
                     raise(tools_error, e.what());
                 }
                 for (const auto& problem : parser->tool_problems()) {
                     const std::string msg = "tool \"" + problem.tool + "\": its parameters schema cannot be used (" +
                                             problem.message + "); its calls will be refused";
                     if (PyErr_WarnEx(tool_schema_warning.ptr(), msg.c_str(), 2) != 0) throw py::error_already_set();
                 }
                 return PyParser{std::move(parser)};
             }),
             py::arg("profile") = py::none(), py::kw_only(), py::arg("profile_file") = py::none(),
             py::arg("tools") = py::none(), py::arg("settings") = py::none(),
             "profile: a name from profiles() (default 'auto'); profile_file: a profile file's path instead; "
             "tools: OpenAI tools (a list, or its JSON text); None: no tool list, any name accepted and nothing "
             "validated (telemetry['validated'] is False); []: no tool may be called; settings: {tool_required, accept_calls_in_reasoning, "
             "accept_healed_calls, tag_open, tag_close, fallback_max_bytes, intent_markers, reasoning_start, "
             "reasoning_format}.")
        .def("parse",
             [](const PyParser& self, py::handle text) {
                 py::bytes b = bytes_of(text);
                 const std::string_view view(PyBytes_AS_STRING(b.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(b.ptr())));
                 std::shared_ptr<toolgram::Result> r;
                 {
                     py::gil_scoped_release unlocked;
                     r = std::make_shared<toolgram::Result>(self.p->parse(view));
                 }
                 return PyResult{std::move(r)};
             },
             py::arg("text"), "Parses a whole output (str or bytes). Never raises on any text; releases the GIL.")
        .def_property_readonly("profile", [](const PyParser& self) { return self.p->profile().name; })
        .def_property_readonly("tools", [](const PyParser& self) {
            std::vector<std::string> names;
            for (const auto& t : self.p->tools()) names.push_back(t.name);
            return names;
        }, "The declared tools' names.")
        .def_property_readonly("tool_problems", [](const PyParser& self) {
            py::list out;
            for (const auto& p : self.p->tool_problems()) {
                py::dict d;
                d["tool"] = p.tool;
                d["message"] = p.message;
                out.append(d);
            }
            return out;
        }, "Tools whose schema cannot be used (their calls are refused): [{'tool', 'message'}].");

    py::class_<PyStream>(m, "StreamParser",
                         "Parses output as it arrives: feed() returns what became certain; finish() returns the "
                         "last events and the Result, equal to Parser.parse of all the text.")
        .def(py::init([](const PyParser& parser) {
                 auto s = std::make_unique<PyStream>();
                 s->parser = parser.p;
                 s->stream = std::make_unique<toolgram::StreamParser>(*s->parser);
                 return s;
             }),
             py::arg("parser"))
        .def("feed",
             [](PyStream& self, py::handle chunk) {
                 py::bytes b = bytes_of(chunk);
                 const std::string_view view(PyBytes_AS_STRING(b.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(b.ptr())));
                 std::vector<toolgram::StreamEvent> events;
                 {
                     py::gil_scoped_release unlocked;
                     std::lock_guard lock(self.mutex);
                     if (!self.finished) events = self.stream->feed(view);
                 }
                 if (self.finished) throw py::value_error("feed() after finish(): the stream is over");
                 return self.events_of(std::move(events));
             },
             py::arg("chunk"), "Feeds a chunk (str or bytes, cut anywhere); returns the events it decided.")
        .def("finish",
             [](PyStream& self) {
                 std::optional<toolgram::StreamParser::Finished> f;
                 {
                     py::gil_scoped_release unlocked;
                     std::lock_guard lock(self.mutex);
                     if (!self.finished) {
                         self.finished = true;
                         f.emplace(self.stream->finish());
                     }
                 }
                 if (!f) throw py::value_error("finish() called twice: the stream is over");
                 py::list events = self.events_of(std::move(f->events));
                 return py::make_tuple(events, PyResult{std::make_shared<toolgram::Result>(std::move(f->result))});
             },
             "Ends the stream: (the last events, the Result).");

    m.def("profiles", [] {
        py::list out;
        for (const auto& name : toolgram::builtin_profile_names()) {
            const toolgram::Profile p = toolgram::builtin_profile(name);
            py::dict d;
            d["name"] = p.name;
            d["description"] = p.description;
            d["models"] = p.models;
            // Where an output is taken to start (the family's templates decide the default,
            // as `toolgram profiles` prints it).
            d["reasoning_start"] = p.settings.reasoning_start == toolgram::ReasoningStart::inside    ? "inside"
                                   : p.settings.reasoning_start == toolgram::ReasoningStart::outside ? "outside"
                                                                                                     : "guess";
            py::list grammars;
            for (const auto& g : p.grammars) {
                py::dict gd;
                gd["grammar"] = g.grammar;
                gd["role"] = g.role == toolgram::Role::primary ? "primary" : "fallback";
                grammars.append(gd);
            }
            d["grammars"] = grammars;
            out.append(d);
        }
        return out;
    }, "The built-in profiles: [{'name', 'description', 'models', 'reasoning_start', 'grammars': [{'grammar', 'role'}]}].");

    m.def("profile_aliases", [] {
        py::list out;
        for (const auto& a : toolgram::profile_aliases()) {
            py::dict d;
            d["engine"] = a.engine;
            d["name"] = a.name;
            d["profile"] = a.profile.empty() ? py::object(py::none()) : py::object(py::str(a.profile));
            d["models"] = a.models;
            out.append(d);
        }
        return out;
    }, "Serving engines' parser names (vLLM's and SGLang's --tool-call-parser, llama.cpp's formats) and the "
       "profile that reads each (None: not read yet).");

    m.def("instruction",
          [](std::optional<std::string> profile, py::object tools, py::object profile_file) {
              const toolgram::Profile p = profile_argument(profile, profile_file);
              return toolgram::format_instruction(p, tools_argument(tools).value_or(std::vector<toolgram::Tool>{}));
          },
          py::arg("profile") = py::none(), py::arg("tools") = py::none(), py::kw_only(),
          py::arg("profile_file") = py::none(),
          "The system-prompt text that teaches a model the profile's call syntax, listing the tools.");

    namespace tp = toolgram::python;
    py::class_<PyReport>(m, "CoverageReport", "How each model's outputs fare with each grammar (toolgram coverage).")
        .def("to_dict", [](const PyReport& r) { return to_python(tp::report_json(r.report)); },
             "The report as data: the json format, which merge_reports and `toolgram coverage --merge` read.")
        .def("render",
             [](const PyReport& r, const std::string& format) {
                 try {
                     return tp::render(r.report, format);
                 } catch (const std::invalid_argument& e) {
                     throw py::value_error(e.what());
                 }
             },
             py::arg("format") = "table", "The report as text: table, markdown, csv, json or html.")
        .def_property_readonly("outputs", [](const PyReport& r) { return tp::output_count(r.report); },
                               "How many outputs were parsed.")
        .def_property_readonly("problems", [](const PyReport& r) {
            py::list out;
            for (const auto& [where, message] : tp::problems(r.report)) {
                py::dict d;
                d["where"] = where;
                d["message"] = message;
                out.append(d);
            }
            return out;
        }, "Inputs that could not be used: [{'where', 'message'}].");

    m.def("coverage",
          [](py::object inputs, std::optional<std::string> profile, py::object profile_file, py::object tools,
             std::optional<std::string> model, std::optional<int> jobs) {
              tp::CoverageOptions o;
              if (profile) {
                  (void)profile_argument(profile, py::none());  // an unknown name is a ProfileError here
                  o.profile = profile;
              }
              if (!profile_file.is_none()) o.profile_file = profile_argument(std::nullopt, profile_file);
              o.tools = tools_argument(tools);
              o.model = model;
              o.jobs = jobs_argument(jobs);
              if (py::isinstance<py::str>(inputs) || py::hasattr(inputs, "__fspath__") || py::isinstance<py::dict>(inputs))
                  inputs = py::make_tuple(inputs);
              std::vector<std::string> paths;
              json records = json::array();
              py::object fspath = py::module_::import("os").attr("fspath");
              // The records of one call share one budget, the size a coverage input file may
              // have: a generator that never ends stops there.
              const auto limit = toolgram::detail::coverage_input_limit();
              Budget budget{limit.bytes, limit.why};
              for (py::handle item : inputs) {
                  if (py::isinstance<py::dict>(item)) {
                      // Each record is bounded as a line of a coverage file is (a document),
                      // and all of them together by the shared budget.
                      Budget one = document_budget();
                      if (budget.left < one.left) one = budget;
                      const std::size_t given = one.left;
                      records.push_back(json_argument(item, "a record", one));
                      budget.left -= given - one.left;
                  } else {
                      paths.push_back(py::str(fspath(item)));
                      if (paths.back().size() + 1 > budget.left)
                          throw py::value_error("coverage: inputs past " + budget.why);
                      budget.left -= paths.back().size() + 1;
                  }
              }
              if (!paths.empty() && !records.empty())
                  throw py::type_error("coverage: give paths (JSONL files, corpus folders) or records (dicts), not both");
              tp::ReportPtr report;
              {
                  py::gil_scoped_release unlocked;
                  try {
                      report = records.empty() ? tp::coverage_of_paths(paths, o) : tp::coverage_of_records(records, o);
                  } catch (const tp::CoverageInputError& e) {
                      throw py::value_error(e.what());  // raised once the GIL is back
                  }
              }
              return PyReport{std::move(report)};
          },
          py::arg("inputs"), py::kw_only(), py::arg("profile") = py::none(), py::arg("profile_file") = py::none(),
          py::arg("tools") = py::none(), py::arg("model") = py::none(), py::arg("jobs") = py::none(),
          "Coverage of labelled outputs: paths (JSONL files, corpus folders) or records "
          "({'model', 'text', 'tools'?, 'profile'?, 'settings'?, 'id'?, 'expect'?}); jobs threads (default: every "
          "core). Unusable inputs are listed in .problems.");

    m.def("merge_reports",
          [](py::iterable reports) {
              std::vector<tp::ReportPtr> parts;
              for (py::handle r : reports) {
                  if (py::isinstance<PyReport>(r)) {
                      parts.push_back(r.cast<const PyReport&>().report);
                      continue;
                  }
                  try {
                      parts.push_back(tp::report_from_json(json_argument(r, "report")));
                  } catch (const std::invalid_argument& e) {
                      throw py::value_error("report " + std::to_string(parts.size()) + ": " + e.what());
                  }
              }
              return PyReport{tp::merge(parts)};
          },
          py::arg("reports"),
          "One report from the reports of shards (CoverageReport objects, their to_dict(), or json text): equal "
          "to the report of all their inputs run together.");
}
