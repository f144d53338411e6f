// simdutf_diff.cpp - a differential run of utf8kit against simdutf, an
// independent implementation (a developer's tool, built with the benchmark
// when -DSIMDUTF_DIR is given; simdutf is not a Debian package, so no test
// of the suite can use it).
//
//   utf8kit_simdutf_diff [ITERATIONS [SEED]]
//
// Draws random inputs (ASCII runs and characters of 1 to 4 octets, mixed
// in random proportions, then either left valid, or with random bytes,
// cut characters and bytes such as 80 C0 ED F4 F5 put in, or cut short;
// one in ten up to 70 KB long, the rest up to 300 bytes) and, on every
// kernel this CPU has (utf8kit_impl_select), compares utf8kit with
// simdutf's strict calls:
//  - is_valid and validate: the verdict, and the offset of the first
//    error (simdutf's result.count);
//  - UTF-8 -> UTF-16LE, UTF-32 and Latin-1: success, the units written,
//    or the offset of the error;
//  - on valid input: the counts of characters and of UTF-16 units (also
//    those that assume valid input), and
//    UTF-16LE / UTF-32 -> UTF-8 of the text, one unit in four of the
//    texts replaced by a lone surrogate (or, in UTF-32, a value above
//    10FFFF);
//  - Latin-1 -> UTF-8 of the raw bytes.
// Prints the first differences and their number; exit status 1 if any.
#include <simdutf.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "utf8kit.h"

namespace {

unsigned long long seed = 88172645463325252ull;

unsigned long long next()
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}

unsigned below(unsigned n) { return (unsigned)(next() % n); }

void put(std::string &s, uint32_t c)
{
    char b[UTF8KIT_MAX_SEQUENCE];
    s.append(b, utf8kit_encode(c, b));
}

// A scalar value whose UTF-8 form has len octets.
uint32_t char_of(unsigned len)
{
    for (;;) {
        uint32_t c;
        switch (len) {
        case 1: c = below(0x80); break;
        case 2: c = 0x80 + below(0x780); break;
        case 3: c = 0x800 + below(0xF800); break;
        default: c = 0x10000 + below(0x100000); break;
        }
        if (c < 0xD800 || c > 0xDFFF)
            return c;
    }
}

std::string draw()
{
    static const unsigned char odd[] = {0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1,
                                        0xC2, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
    std::string s;
    unsigned mode = below(8), mix = below(16);
    size_t target = below(10) == 0 ? below(70000) : below(300);
    while (s.size() < target) {
        unsigned k = below(20);
        if (k < 8 && (mix & 1)) {
            for (unsigned n = 1 + below(80); n > 0; n--)
                s += (char)(0x20 + below(0x5F));
        } else if (k < 11 && (mix & 2)) {
            put(s, char_of(2));
        } else if (k < 14 && (mix & 4)) {
            put(s, char_of(3));
        } else if (k < 16 && (mix & 8)) {
            put(s, char_of(4));
        } else if (k == 16 && mode < 3) {
            s += (char)below(256);
        } else if (k == 17 && mode < 3) {
            std::string t;
            put(t, char_of(2 + below(3)));
            s += t.substr(0, 1 + below((unsigned)t.size() - 1));
        } else {
            put(s, char_of(1));
        }
    }
    if (mode >= 3 && mode < 6 && !s.empty())
        for (unsigned m = 1 + below(3); m > 0; m--)
            s[below((unsigned)s.size())] = (char)odd[below(sizeof odd)];
    if (mode == 6 && !s.empty())
        s.resize(below((unsigned)s.size()));
    return s;
}

long failures;
const char *kernel;

void expect(bool ok, const char *what, const std::string &s, size_t ours, size_t theirs)
{
    if (ok)
        return;
    if (failures++ < 20)
        std::fprintf(stderr, "%s: %s differs (utf8kit %zu, simdutf %zu), input of %zu bytes\n",
                     kernel, what, ours, theirs, s.size());
}

// One strict conversion: both succeed with the same units, or both fail
// at the same offset.
template <typename T>
void same(const char *what, const std::string &s, utf8kit_result u, simdutf::result q, const T *a,
          const T *b)
{
    bool ok = q.error == simdutf::SUCCESS;
    expect((u.status == UTF8KIT_OK) == ok, what, s, (size_t)u.status, (size_t)q.error);
    if (ok && u.status == UTF8KIT_OK)
        expect(u.written == q.count && std::memcmp(a, b, q.count * sizeof(T)) == 0, what, s, u.written,
               q.count);
    else if (!ok && u.status != UTF8KIT_OK)
        expect(u.read == q.count, what, s, u.read, q.count);
}

struct buffers {
    std::vector<char16_t> a16, b16;
    std::vector<char32_t> a32, b32;
    std::vector<char> a8, b8;
    buffers() : a16(1 << 18), b16(1 << 18), a32(1 << 18), b32(1 << 18), a8(1 << 20), b8(1 << 20) {}
};

void compare(const std::string &s, buffers &x)
{
    const char *p = s.data();
    size_t n = s.size();
    bool valid = simdutf::validate_utf8(p, n);
    simdutf::result v = simdutf::validate_utf8_with_errors(p, n);
    utf8kit_result r = utf8kit_validate(p, n);
    expect(utf8kit_is_valid(p, n) == valid, "is_valid", s, !valid, valid);
    expect((r.status == UTF8KIT_OK) == valid, "validate", s, (size_t)r.status, (size_t)v.error);
    if (!valid)
        expect(r.read == v.count, "validate's error offset", s, r.read, v.count);

    same("UTF-8 -> UTF-16LE", s,
         utf8kit_utf8_to_utf16le(p, n, (uint16_t *)x.a16.data(), x.a16.size(), UTF8KIT_STRICT),
         simdutf::convert_utf8_to_utf16le_with_errors(p, n, x.b16.data()), x.a16.data(), x.b16.data());
    same("UTF-8 -> UTF-32", s,
         utf8kit_utf8_to_utf32(p, n, (uint32_t *)x.a32.data(), x.a32.size(), UTF8KIT_STRICT),
         simdutf::convert_utf8_to_utf32_with_errors(p, n, x.b32.data()), x.a32.data(), x.b32.data());
    same("UTF-8 -> Latin-1", s, utf8kit_utf8_to_latin1(p, n, x.a8.data(), x.a8.size(), UTF8KIT_STRICT),
         simdutf::convert_utf8_to_latin1_with_errors(p, n, x.b8.data()), x.a8.data(), x.b8.data());

    if (valid) {
        size_t chars = simdutf::count_utf8(p, n), units = simdutf::utf16_length_from_utf8(p, n);
        expect(utf8kit_count(p, n) == chars, "count", s, utf8kit_count(p, n), chars);
        expect(utf8kit_count_assume_valid(p, n) == chars, "count_assume_valid", s,
               utf8kit_count_assume_valid(p, n), chars);
        expect(utf8kit_utf16_length(p, n) == units, "utf16_length", s, utf8kit_utf16_length(p, n), units);
        expect(utf8kit_utf16_length_assume_valid(p, n) == units, "utf16_length_assume_valid", s,
               utf8kit_utf16_length_assume_valid(p, n), units);

        size_t m = simdutf::convert_utf8_to_utf16le(p, n, x.b16.data());
        if (below(4) == 0 && m)
            x.b16[below((unsigned)m)] = (char16_t)(0xD800 + below(0x800));
        same("UTF-16LE -> UTF-8", s, utf8kit_utf16le_to_utf8((const uint16_t *)x.b16.data(), m,
                                                             x.a8.data(), x.a8.size(), UTF8KIT_STRICT),
             simdutf::convert_utf16le_to_utf8_with_errors(x.b16.data(), m, x.b8.data()), x.a8.data(),
             x.b8.data());

        m = simdutf::convert_utf8_to_utf32(p, n, x.b32.data());
        if (below(4) == 0 && m)
            x.b32[below((unsigned)m)] =
                below(2) ? (char32_t)(0xD800 + below(0x800)) : (char32_t)(0x110000 + below(1u << 30));
        same("UTF-32 -> UTF-8", s, utf8kit_utf32_to_utf8((const uint32_t *)x.b32.data(), m,
                                                         x.a8.data(), x.a8.size(), UTF8KIT_STRICT),
             simdutf::convert_utf32_to_utf8_with_errors(x.b32.data(), m, x.b8.data()), x.a8.data(),
             x.b8.data());
    }

    utf8kit_result l = utf8kit_latin1_to_utf8(p, n, x.a8.data(), x.a8.size());
    size_t m = simdutf::convert_latin1_to_utf8(p, n, x.b8.data());
    expect(l.status == UTF8KIT_OK && l.written == m && std::memcmp(x.a8.data(), x.b8.data(), m) == 0,
           "Latin-1 -> UTF-8", s, l.written, m);
}

} // namespace

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? std::atol(argv[1]) : 50000;
    unsigned long long start = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 1;
    buffers x;
    for (size_t i = 0; (kernel = utf8kit_impl_available(i)) != nullptr; i++) {
        long invalid = 0;
        utf8kit_impl_select(kernel);
        seed = 88172645463325252ull ^ (start * 0x9E3779B97F4A7C15ull);
        if (seed == 0)
            seed = 1;
        for (long it = 0; it < iterations; it++) {
            std::string s = draw();
            invalid += !utf8kit_is_valid(s.data(), s.size());
            compare(s, x);
        }
        std::printf("%-7s %ld inputs (%ld invalid), %ld differences so far\n", kernel, iterations,
                    invalid, failures);
    }
    return failures != 0;
}
