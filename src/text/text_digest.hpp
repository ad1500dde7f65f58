// A digest of text written piece by piece, for the stream to remember what it sent
// without keeping it.
//
// The stream sends a call's arguments, its content and its reasoning as they arrive, and
// at the end checks that the one-shot result begins with what it sent. Keeping the sent
// bytes for that check cost one more copy of the output, and for a long argument a
// buffer that doubled into fresh memory in the middle of the stream: one chunk then paid
// for every page of it (docs/bench-notes.md, 2026-11-29). A digest holds 80 bytes
// whatever was sent.
//
// The state is four 64-bit lanes, each taking every fourth 8-byte word through xxHash64's
// round (a bijection of the word for a given lane, so no single-word change is lost),
// plus the bytes of an unfinished 32-byte stripe. Two digests are equal when their
// lengths, lanes and unfinished bytes are: a false "equal" needs a collision in 256 bits
// of state. The lanes start from a seed drawn once per process, so text cannot be
// written ahead of time to collide. The digest of a text does not depend on how it was
// cut into pieces.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string_view>

namespace toolgram::detail {

class TextDigest {
public:
    TextDigest() : lanes_(initial_lanes()) {}

    void append(std::string_view t) {
        size_ += t.size();
        if (pending_ > 0) {
            const std::size_t n = std::min(t.size(), stripe - pending_);
            std::memcpy(tail_.data() + pending_, t.data(), n);
            pending_ += n;
            t.remove_prefix(n);
            if (pending_ < stripe) return;
            mix_stripe(tail_.data());
            pending_ = 0;
        }
        while (t.size() >= stripe) {
            mix_stripe(t.data());
            t.remove_prefix(stripe);
        }
        std::memcpy(tail_.data(), t.data(), t.size());
        pending_ = t.size();
    }

    std::size_t size() const { return size_; }

    // Whether `t` begins with the text digested.
    bool starts(std::string_view t) const {
        if (t.size() < size_) return false;
        TextDigest d;
        d.append(t.substr(0, size_));
        return d == *this;
    }

    friend bool operator==(const TextDigest& a, const TextDigest& b) {
        return a.size_ == b.size_ && a.lanes_ == b.lanes_ && std::memcmp(a.tail_.data(), b.tail_.data(), a.pending_) == 0;
    }

private:
    static constexpr std::size_t stripe = 32;
    static constexpr std::uint64_t prime1 = 0x9E3779B185EBCA87ULL, prime2 = 0xC2B2AE3D27D4EB4FULL;
    static std::uint64_t round(std::uint64_t lane, std::uint64_t word) {
        lane += word * prime2;
        lane = (lane << 31) | (lane >> 33);
        return lane * prime1;
    }
    void mix_stripe(const char* p) {
        for (std::size_t i = 0; i < 4; ++i) {
            std::uint64_t w;
            std::memcpy(&w, p + 8 * i, 8);
            lanes_[i] = round(lanes_[i], w);
        }
    }
    static std::array<std::uint64_t, 4> initial_lanes() {
        static const std::array<std::uint64_t, 4> lanes = [] {
            std::uint64_t seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
            try {
                std::random_device rd;
                seed ^= (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
            } catch (...) {
                // No entropy source: the clock alone seeds the lanes.
            }
            return std::array<std::uint64_t, 4>{seed + prime1 + prime2, seed + prime2, seed, seed - prime1};
        }();
        return lanes;
    }

    std::array<std::uint64_t, 4> lanes_;
    std::array<char, stripe> tail_{};
    std::size_t pending_ = 0;
    std::size_t size_ = 0;
};

}  // namespace toolgram::detail
