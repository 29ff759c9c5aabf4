// AEGIS (RFC 10032) written again from the document's definitions, byte by byte, as an oracle for the
// tests and the fuzz harness: AEGIS-128L and AEGIS-128X2/X4 (eight 128-bit blocks per lane, 256-bit rate
// per lane), AEGIS-256 and AEGIS-256X2/X4 (six blocks, 128-bit rate per lane), tags of 16 or 32 bytes.
// Nothing here comes from libaegis: the AES round is a table S-box with MixColumns in xtime (slow, not
// constant-time, never for real data). D lanes run the same update; lane i's context block is
// (i, D - 1, 0...), which is zero for D = 1, so the 128L and 256 forms are the X forms with one lane.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace aegis_ref {

using Block = std::array<uint8_t, 16>;

inline constexpr uint8_t kSbox[256] = {
    0x63, 0x7c, 0x77, 0x7b, 0xf2, 0x6b, 0x6f, 0xc5, 0x30, 0x01, 0x67, 0x2b, 0xfe, 0xd7, 0xab, 0x76, 0xca, 0x82, 0xc9,
    0x7d, 0xfa, 0x59, 0x47, 0xf0, 0xad, 0xd4, 0xa2, 0xaf, 0x9c, 0xa4, 0x72, 0xc0, 0xb7, 0xfd, 0x93, 0x26, 0x36, 0x3f,
    0xf7, 0xcc, 0x34, 0xa5, 0xe5, 0xf1, 0x71, 0xd8, 0x31, 0x15, 0x04, 0xc7, 0x23, 0xc3, 0x18, 0x96, 0x05, 0x9a, 0x07,
    0x12, 0x80, 0xe2, 0xeb, 0x27, 0xb2, 0x75, 0x09, 0x83, 0x2c, 0x1a, 0x1b, 0x6e, 0x5a, 0xa0, 0x52, 0x3b, 0xd6, 0xb3,
    0x29, 0xe3, 0x2f, 0x84, 0x53, 0xd1, 0x00, 0xed, 0x20, 0xfc, 0xb1, 0x5b, 0x6a, 0xcb, 0xbe, 0x39, 0x4a, 0x4c, 0x58,
    0xcf, 0xd0, 0xef, 0xaa, 0xfb, 0x43, 0x4d, 0x33, 0x85, 0x45, 0xf9, 0x02, 0x7f, 0x50, 0x3c, 0x9f, 0xa8, 0x51, 0xa3,
    0x40, 0x8f, 0x92, 0x9d, 0x38, 0xf5, 0xbc, 0xb6, 0xda, 0x21, 0x10, 0xff, 0xf3, 0xd2, 0xcd, 0x0c, 0x13, 0xec, 0x5f,
    0x97, 0x44, 0x17, 0xc4, 0xa7, 0x7e, 0x3d, 0x64, 0x5d, 0x19, 0x73, 0x60, 0x81, 0x4f, 0xdc, 0x22, 0x2a, 0x90, 0x88,
    0x46, 0xee, 0xb8, 0x14, 0xde, 0x5e, 0x0b, 0xdb, 0xe0, 0x32, 0x3a, 0x0a, 0x49, 0x06, 0x24, 0x5c, 0xc2, 0xd3, 0xac,
    0x62, 0x91, 0x95, 0xe4, 0x79, 0xe7, 0xc8, 0x37, 0x6d, 0x8d, 0xd5, 0x4e, 0xa9, 0x6c, 0x56, 0xf4, 0xea, 0x65, 0x7a,
    0xae, 0x08, 0xba, 0x78, 0x25, 0x2e, 0x1c, 0xa6, 0xb4, 0xc6, 0xe8, 0xdd, 0x74, 0x1f, 0x4b, 0xbd, 0x8b, 0x8a, 0x70,
    0x3e, 0xb5, 0x66, 0x48, 0x03, 0xf6, 0x0e, 0x61, 0x35, 0x57, 0xb9, 0x86, 0xc1, 0x1d, 0x9e, 0xe1, 0xf8, 0x98, 0x11,
    0x69, 0xd9, 0x8e, 0x94, 0x9b, 0x1e, 0x87, 0xe9, 0xce, 0x55, 0x28, 0xdf, 0x8c, 0xa1, 0x89, 0x0d, 0xbf, 0xe6, 0x42,
    0x68, 0x41, 0x99, 0x2d, 0x0f, 0xb0, 0x54, 0xbb, 0x16};

inline constexpr Block kC0 = {0x00, 0x01, 0x01, 0x02, 0x03, 0x05, 0x08, 0x0d,
                              0x15, 0x22, 0x37, 0x59, 0x90, 0xe9, 0x79, 0x62};
inline constexpr Block kC1 = {0xdb, 0x3d, 0x18, 0x55, 0x6d, 0xc2, 0x2f, 0xf1,
                              0x20, 0x11, 0x31, 0x42, 0x73, 0xb5, 0x28, 0xdd};

inline uint8_t xtime(unsigned x) { return static_cast<uint8_t>((x << 1) ^ ((x >> 7 & 1) * 0x1b)); }

// AESRound(in, rk) = MixColumns(ShiftRows(SubBytes(in))) ^ rk; bytes are column-major (4 * column + row).
inline Block aes_round(const Block &in, const Block &rk) {
    Block s{}, out{};
    for (size_t c = 0; c < 4; ++c)
        for (size_t r = 0; r < 4; ++r) s[4 * c + r] = kSbox[in[4 * ((c + r) % 4) + r]];
    for (size_t c = 0; c < 4; ++c) {
        const uint8_t a0 = s[4 * c], a1 = s[4 * c + 1], a2 = s[4 * c + 2], a3 = s[4 * c + 3];
        const auto t = static_cast<uint8_t>(a0 ^ a1 ^ a2 ^ a3);
        out[4 * c] = static_cast<uint8_t>(a0 ^ t ^ xtime(a0 ^ a1));
        out[4 * c + 1] = static_cast<uint8_t>(a1 ^ t ^ xtime(a1 ^ a2));
        out[4 * c + 2] = static_cast<uint8_t>(a2 ^ t ^ xtime(a2 ^ a3));
        out[4 * c + 3] = static_cast<uint8_t>(a3 ^ t ^ xtime(a3 ^ a0));
    }
    for (size_t i = 0; i < 16; ++i) out[i] = static_cast<uint8_t>(out[i] ^ rk[i]);
    return out;
}

inline Block operator^(const Block &a, const Block &b) {
    Block r{};
    for (size_t i = 0; i < 16; ++i) r[i] = static_cast<uint8_t>(a[i] ^ b[i]);
    return r;
}
inline Block operator&(const Block &a, const Block &b) {
    Block r{};
    for (size_t i = 0; i < 16; ++i) r[i] = static_cast<uint8_t>(a[i] & b[i]);
    return r;
}
inline Block load(const uint8_t *p) {
    Block b{};
    std::memcpy(b.data(), p, 16);
    return b;
}

// One AEGIS instance: wide (the 128L family: 8 blocks, two message blocks per lane) or not (the 256
// family: 6 blocks, one), with D lanes.
class State {
public:
    State(bool wide, size_t lanes) : wide_(wide), d_(lanes), v_(lanes * (wide ? 8 : 6)) {}

    size_t rate() const { return (wide_ ? 32 : 16) * d_; }

    void init(const uint8_t *key, const uint8_t *nonce) {
        if (wide_) {
            const Block k = load(key), n = load(nonce);
            for (size_t i = 0; i < d_; ++i) {
                const Block lane[8] = {k ^ n, kC1, kC0, kC1, k ^ n, k ^ kC0, k ^ kC1, k ^ kC0};
                for (size_t j = 0; j < 8; ++j) at(j, i) = lane[j];
            }
            std::vector<uint8_t> m(rate());
            for (size_t i = 0; i < d_; ++i) {
                std::memcpy(&m[16 * i], nonce, 16);
                std::memcpy(&m[16 * (d_ + i)], key, 16);
            }
            for (int r = 0; r < 10; ++r) {
                add_context(3);
                add_context(7);
                update(m.data());
            }
        } else {
            const Block k0 = load(key), k1 = load(key + 16), n0 = load(nonce), n1 = load(nonce + 16);
            for (size_t i = 0; i < d_; ++i) {
                const Block lane[6] = {k0 ^ n0, k1 ^ n1, kC1, kC0, k0 ^ kC0, k1 ^ kC1};
                for (size_t j = 0; j < 6; ++j) at(j, i) = lane[j];
            }
            const Block seq[4] = {k0, k1, k0 ^ n0, k1 ^ n1};
            std::vector<uint8_t> m(rate());
            for (int r = 0; r < 4; ++r)
                for (const Block &b : seq) {
                    for (size_t i = 0; i < d_; ++i) std::memcpy(&m[16 * i], b.data(), 16);
                    add_context(3);
                    add_context(5);
                    update(m.data());
                }
        }
    }

    // Update(M): M is rate() bytes; lane i's first message block is at 16 i, a wide lane's second at
    // 16 (D + i).
    void update(const uint8_t *m) {
        const size_t nb = wide_ ? 8 : 6;
        std::array<Block, 32> old{};  // at most 4 lanes of 8 blocks
        std::copy(v_.begin(), v_.end(), old.begin());
        for (size_t i = 0; i < d_; ++i) {
            for (size_t j = 0; j < nb; ++j) {
                Block rk = old[j * d_ + i];
                if (j == 0) rk = rk ^ load(m + 16 * i);
                if (wide_ && j == 4) rk = rk ^ load(m + 16 * (d_ + i));
                at(j, i) = aes_round(old[((j + nb - 1) % nb) * d_ + i], rk);
            }
        }
    }

    // The keystream block z (rate() bytes) of the current state.
    void keystream(uint8_t *z) const {
        for (size_t i = 0; i < d_; ++i) {
            if (wide_) {
                const Block z0 = at(6, i) ^ at(1, i) ^ (at(2, i) & at(3, i));
                const Block z1 = at(2, i) ^ at(5, i) ^ (at(6, i) & at(7, i));
                std::memcpy(z + 16 * i, z0.data(), 16);
                std::memcpy(z + 16 * (d_ + i), z1.data(), 16);
            } else {
                const Block z0 = at(1, i) ^ at(4, i) ^ at(5, i) ^ (at(2, i) & at(3, i));
                std::memcpy(z + 16 * i, z0.data(), 16);
            }
        }
    }

    std::vector<uint8_t> finalize(uint64_t ad_len, uint64_t msg_len, size_t tag_len) {
        Block u{};
        for (unsigned b = 0; b < 8; ++b) {
            u[b] = static_cast<uint8_t>((ad_len * 8) >> (8 * b));
            u[8 + b] = static_cast<uint8_t>((msg_len * 8) >> (8 * b));
        }
        std::vector<uint8_t> t(rate());
        for (size_t i = 0; i < d_; ++i) {
            const Block ti = at(wide_ ? 2 : 3, i) ^ u;
            std::memcpy(&t[16 * i], ti.data(), 16);
            if (wide_) std::memcpy(&t[16 * (d_ + i)], ti.data(), 16);
        }
        for (int r = 0; r < 7; ++r) update(t.data());
        // 16: the XOR of every block but the last (wide) or of all six; 32: the two halves' XORs. Lanes XOR.
        const size_t nb = wide_ ? 8 : 6;
        Block lo{}, hi{};
        for (size_t i = 0; i < d_; ++i)
            for (size_t j = 0; j < nb; ++j) {
                if (tag_len == 16 && !(wide_ && j == 7)) lo = lo ^ at(j, i);
                if (tag_len == 32) (j < nb / 2 ? lo : hi) = (j < nb / 2 ? lo : hi) ^ at(j, i);
            }
        std::vector<uint8_t> tag(tag_len);
        std::memcpy(tag.data(), lo.data(), 16);
        if (tag_len == 32) std::memcpy(tag.data() + 16, hi.data(), 16);
        return tag;
    }

private:
    Block &at(size_t j, size_t lane) { return v_[j * d_ + lane]; }
    const Block &at(size_t j, size_t lane) const { return v_[j * d_ + lane]; }
    void add_context(size_t j) {
        for (size_t i = 0; i < d_; ++i) {
            Block ctx{};
            ctx[0] = static_cast<uint8_t>(i);
            ctx[1] = static_cast<uint8_t>(d_ - 1);
            at(j, i) = at(j, i) ^ ctx;
        }
    }

    bool wide_;
    size_t d_;
    std::vector<Block> v_;
};

// The variants by libaead's ids (aead.h): 18 AEGIS-128L, 19 AEGIS-256, 20/21 AEGIS-128X2/X4,
// 22/23 AEGIS-256X2/X4.
struct Shape {
    bool wide;
    size_t lanes, key;
};
inline Shape shape_of(int alg) {
    switch (alg) {
        case 18: return {true, 1, 16};
        case 19: return {false, 1, 32};
        case 20: return {true, 2, 16};
        case 21: return {true, 4, 16};
        case 22: return {false, 2, 32};
        default: return {false, 4, 32};  // 23
    }
}

// Encrypt: ciphertext || tag.
inline std::vector<uint8_t> seal(int alg, const uint8_t *key, const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                                 const uint8_t *msg, size_t msg_len, size_t tag_len) {
    const Shape sh = shape_of(alg);
    State s(sh.wide, sh.lanes);
    s.init(key, nonce);
    const size_t rate = s.rate();
    std::vector<uint8_t> block(rate), z(rate), out(msg_len);
    for (size_t off = 0; off < ad_len; off += rate) {
        std::fill(block.begin(), block.end(), 0);
        std::memcpy(block.data(), ad + off, std::min(rate, ad_len - off));
        s.update(block.data());
    }
    for (size_t off = 0; off < msg_len; off += rate) {
        const size_t n = std::min(rate, msg_len - off);
        std::fill(block.begin(), block.end(), 0);
        std::memcpy(block.data(), msg + off, n);
        s.keystream(z.data());
        for (size_t i = 0; i < n; ++i) out[off + i] = static_cast<uint8_t>(block[i] ^ z[i]);
        s.update(block.data());
    }
    const std::vector<uint8_t> tag = s.finalize(ad_len, msg_len, tag_len);
    out.insert(out.end(), tag.begin(), tag.end());
    return out;
}

// Decrypt ct (ct_len bytes, then the tag_len-byte tag): true and the plaintext in *msg when the tag is
// right; false otherwise (*msg then undefined).
inline bool open(int alg, const uint8_t *key, const uint8_t *nonce, const uint8_t *ad, size_t ad_len, const uint8_t *ct,
                 size_t ct_len, const uint8_t *tag, size_t tag_len, std::vector<uint8_t> *msg) {
    const Shape sh = shape_of(alg);
    State s(sh.wide, sh.lanes);
    s.init(key, nonce);
    const size_t rate = s.rate();
    std::vector<uint8_t> block(rate), z(rate);
    msg->assign(ct_len, 0);
    for (size_t off = 0; off < ad_len; off += rate) {
        std::fill(block.begin(), block.end(), 0);
        std::memcpy(block.data(), ad + off, std::min(rate, ad_len - off));
        s.update(block.data());
    }
    for (size_t off = 0; off < ct_len; off += rate) {
        const size_t n = std::min(rate, ct_len - off);
        s.keystream(z.data());
        std::fill(block.begin(), block.end(), 0);
        for (size_t i = 0; i < n; ++i) block[i] = static_cast<uint8_t>(ct[off + i] ^ z[i]);  // the partial block's pad stays zero
        std::memcpy(msg->data() + off, block.data(), n);
        s.update(block.data());
    }
    const std::vector<uint8_t> expect = s.finalize(ad_len, ct_len, tag_len);
    return std::memcmp(expect.data(), tag, tag_len) == 0;
}

}  // namespace aegis_ref
