// Reading files and stdin with a ceiling: everything the CLI and `toolgram coverage` read
// (model output, JSONL batches, tools and profile files, a corpus's cases, an earlier
// report) comes through here, so no input, however long or endless (/dev/zero, a
// never-closed pipe), grows memory without bound.
//
// Limits::max_input_bytes bounds how much of an output the parser scans; the rest is
// content. The readers stop a margin above it (output_limit): an output that runs a
// little over still gets the library's documented treatment (the rest is content, one
// rejection says so), and escaping in a JSONL line has room, while an input many times
// the limit is refused before it is held in memory.
//
// What a file may be: model output may come from a pipe or a FIFO (`parse`, `stream`
// read as data arrives), so `any_but_directory`; a corpus folder's entries are opened
// `regular_only` (a FIFO there would block the whole run, a device would never end), and
// the type is checked on the opened descriptor, not by a stat before opening.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "toolgram/toolgram.hpp"

namespace toolgram::detail {

inline constexpr std::size_t input_margin = std::size_t{1} << 20;  // 1 MiB

// How much may be read, and why, for the message when there is more.
struct ReadLimit {
    std::size_t bytes = 0;
    std::string why;
};
// Model output (parse and stream input, a JSONL line, a corpus case's text).
ReadLimit output_limit(const Limits& limits);
// A JSON document such as a tools or profile file, an expect.json: the default output
// limit, as such a file is no bigger than an output it describes.
ReadLimit document_limit();
// An earlier coverage report (--diff), which holds every output of a run.
ReadLimit report_limit();
// A whole coverage JSONL input: coverage keeps every line's sample for the report, so
// this is what bounds its memory (and ends an endless line, which is skipped, not kept).
ReadLimit coverage_input_limit();

enum class FileTypes { any_but_directory, regular_only };

// A file that cannot be read, or holds more than its limit: "cannot read x.txt: it is a
// directory", with the reason alone ("it is a directory") for messages of another shape.
struct ReadError : std::runtime_error {
    ReadError(const std::string& label, std::string why)
        : std::runtime_error("cannot read " + label + ": " + why), reason(std::move(why)) {}
    std::string reason;
};

// An open file, or stdin for "-" (not closed by this). Throws ReadError.
class InputFile {
public:
    InputFile(const std::string& path, FileTypes types);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    int fd() const { return fd_; }
    const std::string& label() const { return label_; }  // the path, or "stdin"

    // Reads to the end; throws ReadError when there are more than limit.bytes.
    std::string read_all(const ReadLimit& limit);
    // Up to `size` bytes, 0 at the end; throws ReadError on a read error. Reads as data
    // arrives (a pipe's bytes are returned as soon as they are written).
    std::size_t read_some(char* buffer, std::size_t size);

private:
    int fd_ = -1;
    bool owned_ = false;
    std::string label_;
    std::size_t size_hint_ = 0;  // a regular file's size when opened
};

// `path`, read whole, within the limit. Throws ReadError.
std::string read_file(const std::string& path, const ReadLimit& limit, FileTypes types);

// Lines of a file, each at most limit.bytes long (without its '\n'). A longer line is
// reported as too long as soon as it passes the limit, and its rest is then skipped
// without being stored, so memory stays within the limit plus one read's buffer. With a
// `total` limit, reading more than that throws ReadError (a reader that keeps every line,
// as coverage does, is then bounded too, and an endless line ends).
class LineReader {
public:
    LineReader(InputFile& file, ReadLimit limit, std::optional<ReadLimit> total = std::nullopt);

    enum class Status { line, too_long, end };
    // The next line into `line` (its number is line_number()); too_long leaves `line` empty.
    Status next(std::string& line);
    std::size_t line_number() const { return line_number_; }
    const ReadLimit& limit() const { return limit_; }

private:
    bool fill();  // false at the end of the file

    InputFile& file_;
    ReadLimit limit_;
    std::optional<ReadLimit> total_;
    std::size_t read_ = 0;  // bytes read so far, for `total`
    std::vector<char> buffer_;
    std::size_t begin_ = 0, end_ = 0;  // unread bytes in buffer_
    bool skipping_ = false;            // inside a too-long line, looking for its end
    bool at_end_ = false;
    std::size_t line_number_ = 0;
};

}  // namespace toolgram::detail
