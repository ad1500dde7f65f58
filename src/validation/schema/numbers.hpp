// Exact arithmetic on JSON numbers as nlohmann stores them: int64, uint64 or double.
//
// A validator that converts everything to int64 wraps at 2^63 (valijson did: 2^63 passed
// `"maximum": 1000`); one that converts to double rounds 2^53 + 1; one that truncates
// doubles calls 2.5 a multiple of 2. Here comparisons are exact across the three kinds, and
// multipleOf is decided on the decimal value each number denotes (the shortest decimal that
// reads back as the same double: what the model wrote, for any decimal of up to 17 digits).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace toolgram::detail::schema {

using json = nlohmann::ordered_json;

// -1, 0 or 1 as a < b, a == b, a > b. Both must be numbers.
int compare_numbers(const json& a, const json& b);

// Whether the number has no fractional part (1.0 and 1e300 do; nlohmann's integers always).
bool is_integral(const json& n);

// Whether value / divisor is an integer, exactly; divisor must be > 0. An overflowing
// quotient (1e308 / 0.123456789) is decided exactly too, not by a division that gives inf.
bool is_multiple_of(const json& value, const json& divisor);

// Whether a number may stand for a literal nlohmann could not hold exactly: a double at or
// past 2^64, or at or below -2^63. Integers written within those bounds are held as int64 or
// uint64, exactly; one written past them (18446744073709551617) becomes the nearest double,
// as every JSON library toolgram's input passes through does, so its digits are gone before
// validation. Comparisons with such a number are exact only where the doubles differ.
bool held_rounded(const json& n);
// Whether a value holds such a number anywhere (an explicit walk: no recursion).
bool holds_rounded(const json& value);

// The number as a short canonical decimal: integral values as integers whatever their
// storage (1.0 and 1 both give "1"), others as the shortest round-trip form. Equal numbers
// give equal text (uniqueItems, messages).
std::string canonical_number(const json& n);

}  // namespace toolgram::detail::schema
