// Exact comparisons and divisibility of JSON numbers (see numbers.hpp).
#include "validation/schema/numbers.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

namespace toolgram::detail::schema {

// Every int64, uint64 and double converts to long double exactly when its significand has
// 64 bits (x86-64's 80-bit format, or a 128-bit one); comparisons there are then exact.
static_assert(std::numeric_limits<long double>::digits >= 64,
              "exact number comparison needs a long double of at least 64 significand bits");

namespace {

long double widen(const json& n) {
    if (n.is_number_unsigned()) return static_cast<long double>(n.get<std::uint64_t>());
    if (n.is_number_integer()) return static_cast<long double>(n.get<std::int64_t>());
    return static_cast<long double>(n.get<double>());
}

// A number as mantissa × 10^exponent, the mantissa without sign (at most 20 digits).
struct Decimal {
    std::uint64_t mantissa = 0;
    int exponent = 0;
};

Decimal decimal_of(const json& n) {
    Decimal d;
    if (n.is_number_unsigned()) {
        d.mantissa = n.get<std::uint64_t>();
        return d;
    }
    if (n.is_number_integer()) {
        const std::int64_t v = n.get<std::int64_t>();
        // -(v + 1) + 1 stays in range for INT64_MIN.
        d.mantissa = v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
        return d;
    }
    // The shortest decimal that reads back as this double: "7.5e-03" → 75 × 10^-4.
    char buffer[64];
    const double v = std::fabs(n.get<double>());
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::scientific);
    const char* p = buffer;
    int fraction_digits = 0;
    bool after_point = false;
    for (; p < result.ptr && *p != 'e'; ++p) {
        if (*p == '.') {
            after_point = true;
            continue;
        }
        d.mantissa = d.mantissa * 10 + static_cast<std::uint64_t>(*p - '0');  // ≤ 17 digits
        if (after_point) ++fraction_digits;
    }
    int exponent = 0;
    if (p < result.ptr) std::from_chars(p[1] == '+' ? p + 2 : p + 1, result.ptr, exponent);
    d.exponent = exponent - fraction_digits;
    return d;
}

__extension__ typedef unsigned __int128 u128;  // GCC and Clang; -Wpedantic asks for the marker

// 10^k mod m, by squaring.
std::uint64_t pow10_mod(unsigned k, std::uint64_t m) {
    u128 result = 1 % m, base = 10 % m;
    while (k) {
        if (k & 1) result = result * base % m;
        base = base * base % m;
        k >>= 1;
    }
    return static_cast<std::uint64_t>(result);
}

}  // namespace

int compare_numbers(const json& a, const json& b) {
    // Integers of the same signedness compare directly; everything else through long double.
    if (a.is_number_unsigned() && b.is_number_unsigned()) {
        const auto x = a.get<std::uint64_t>(), y = b.get<std::uint64_t>();
        return x < y ? -1 : x > y ? 1 : 0;
    }
    const long double x = widen(a), y = widen(b);
    return x < y ? -1 : x > y ? 1 : 0;
}

bool is_integral(const json& n) {
    if (!n.is_number_float()) return n.is_number();
    const double v = n.get<double>();
    return std::isfinite(v) && std::trunc(v) == v;
}

bool is_multiple_of(const json& value, const json& divisor) {
    for (const json* n : {&value, &divisor})
        if (n->is_number_float() && !std::isfinite(n->get<double>())) return false;  // not JSON; never read
    const Decimal v = decimal_of(value);
    const Decimal m = decimal_of(divisor);
    if (v.mantissa == 0) return true;
    if (m.mantissa == 0) return false;  // refused when compiled; never divide by zero
    // value / divisor = (v.mantissa / m.mantissa) × 10^k
    const long k = static_cast<long>(v.exponent) - m.exponent;
    if (k >= 0) {
        // An integer when m.mantissa divides v.mantissa × 10^k.
        const u128 r = static_cast<u128>(v.mantissa % m.mantissa) * pow10_mod(static_cast<unsigned>(k), m.mantissa);
        return r % m.mantissa == 0;
    }
    // An integer when m.mantissa × 10^-k divides v.mantissa (which is below 2^64 < 10^20).
    if (-k > 20) return false;
    u128 d = m.mantissa;
    for (long i = 0; i < -k; ++i) {
        d *= 10;
        if (d > v.mantissa) return false;
    }
    return v.mantissa % d == 0;
}

bool held_rounded(const json& n) {
    if (!n.is_number_float()) return false;
    const double v = n.get<double>();
    return v >= 18446744073709551616.0 || v <= -9223372036854775808.0;
}

bool holds_rounded(const json& value) {
    if (!value.is_structured()) return held_rounded(value);  // most enum members: no list made
    std::vector<const json*> pending{&value};
    while (!pending.empty()) {
        const json* v = pending.back();
        pending.pop_back();
        if (held_rounded(*v)) return true;
        if (v->is_structured())
            for (const auto& e : *v) pending.push_back(&e);
    }
    return false;
}

std::string canonical_number(const json& n) {
    if (n.is_number_unsigned()) return std::to_string(n.get<std::uint64_t>());
    if (n.is_number_integer()) return std::to_string(n.get<std::int64_t>());
    const double v = n.get<double>();
    if (is_integral(n) && std::fabs(v) < 18446744073709551616.0) {
        const std::string digits = std::to_string(static_cast<std::uint64_t>(std::fabs(v)));
        return v < 0 ? "-" + digits : digits;
    }
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, result.ptr);
}

}  // namespace toolgram::detail::schema
