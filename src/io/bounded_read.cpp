// Bounded reading of files and stdin (bounded_read.hpp), with read(2) on a descriptor:
// the type of what was opened is known before a byte is read, and reading stops at the
// limit rather than at the end of the file.
#include "io/bounded_read.hpp"

#include <cerrno>
#include <cstring>
#include <limits>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace toolgram::detail {

namespace {

constexpr std::size_t read_chunk = 64 * 1024;

std::size_t saturating_add(std::size_t a, std::size_t b) {
    return a > std::numeric_limits<std::size_t>::max() - b ? std::numeric_limits<std::size_t>::max() : a + b;
}

const char* kind_of(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "not a regular file";
}

[[noreturn]] void too_long(const std::string& label, const ReadLimit& limit) {
    throw ReadError(label, "longer than " + std::to_string(limit.bytes) + " bytes (" + limit.why + ")");
}

}  // namespace

ReadLimit output_limit(const Limits& limits) {
    return {saturating_add(limits.max_input_bytes, input_margin),
            "limits.max_input_bytes, " + std::to_string(limits.max_input_bytes) + ", plus a margin of " +
                std::to_string(input_margin)};
}

ReadLimit document_limit() {
    return {saturating_add(Limits{}.max_input_bytes, input_margin), "the limit for a JSON document such as a tools or profile file"};
}

ReadLimit report_limit() { return {std::size_t{256} << 20, "the limit for an earlier report"}; }

ReadLimit coverage_input_limit() { return {std::size_t{256} << 20, "the limit for a coverage input"}; }

InputFile::InputFile(const std::string& path, FileTypes types) {
    if (path.empty() || path == "-") {
        fd_ = 0;
        label_ = "stdin";
    } else {
        label_ = path;
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, and the
        // point of regular_only is never to wait on one.
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | (types == FileTypes::regular_only ? O_NONBLOCK : 0));
        if (fd_ < 0) throw ReadError(path, std::strerror(errno));
        owned_ = true;
    }
    struct stat st {};
    std::string problem;
    if (::fstat(fd_, &st) != 0) problem = std::strerror(errno);
    else if (S_ISDIR(st.st_mode)) problem = "it is a directory";
    else if (types == FileTypes::regular_only && !S_ISREG(st.st_mode))
        problem = std::string("it is ") + kind_of(st.st_mode) + ", not a regular file";
    if (problem.empty() && types == FileTypes::regular_only) {
        const int flags = ::fcntl(fd_, F_GETFL);
        if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) problem = std::strerror(errno);
    }
    if (!problem.empty()) {
        if (owned_) ::close(fd_);  // the destructor does not run for a constructor that throws
        throw ReadError(label_, problem);
    }
    if (S_ISREG(st.st_mode) && st.st_size > 0) size_hint_ = static_cast<std::size_t>(st.st_size);
}

InputFile::~InputFile() {
    if (owned_) ::close(fd_);
}

std::size_t InputFile::read_some(char* buffer, std::size_t size) {
    for (;;) {
        const ssize_t got = ::read(fd_, buffer, size);
        if (got >= 0) return static_cast<std::size_t>(got);
        if (errno != EINTR) throw ReadError(label_, std::strerror(errno));
    }
}

std::string InputFile::read_all(const ReadLimit& limit) {
    // A regular file's size tells before reading it (it may still grow while read).
    if (size_hint_ > limit.bytes) too_long(label_, limit);
    std::string out;
    out.reserve(size_hint_);
    char chunk[read_chunk];
    for (;;) {
        const std::size_t got = read_some(chunk, sizeof chunk);
        if (got == 0) return out;
        if (got > limit.bytes - out.size()) too_long(label_, limit);
        out.append(chunk, got);
    }
}

std::string read_file(const std::string& path, const ReadLimit& limit, FileTypes types) {
    InputFile file(path, types);
    return file.read_all(limit);
}

LineReader::LineReader(InputFile& file, ReadLimit limit, std::optional<ReadLimit> total)
    : file_(file), limit_(std::move(limit)), total_(std::move(total)), buffer_(read_chunk) {}

bool LineReader::fill() {
    begin_ = 0;
    end_ = at_end_ ? 0 : file_.read_some(buffer_.data(), buffer_.size());
    if (end_ == 0) at_end_ = true;
    read_ += end_;
    if (total_ && read_ > total_->bytes) {
        at_end_ = true;
        begin_ = end_ = 0;
        too_long(file_.label(), *total_);
    }
    return end_ > 0;
}

LineReader::Status LineReader::next(std::string& line) {
    line.clear();
    for (;;) {
        if (begin_ == end_ && !fill()) {
            if (skipping_ || line.empty()) {
                skipping_ = false;
                return Status::end;
            }
            ++line_number_;  // a last line without its '\n'
            return Status::line;
        }
        const char* from = buffer_.data() + begin_;
        const auto* newline = static_cast<const char*>(std::memchr(from, '\n', end_ - begin_));
        const std::size_t take = newline ? static_cast<std::size_t>(newline - from) : end_ - begin_;
        begin_ = newline ? begin_ + take + 1 : end_;
        if (skipping_) {
            if (newline) skipping_ = false;
            continue;
        }
        if (take > limit_.bytes - line.size()) {
            // Reported now, not at the line's end: an endless line (/dev/zero) has none.
            ++line_number_;
            skipping_ = newline == nullptr;
            line.clear();
            line.shrink_to_fit();
            return Status::too_long;
        }
        line.append(from, take);
        if (newline) {
            ++line_number_;
            return Status::line;
        }
    }
}

}  // namespace toolgram::detail
