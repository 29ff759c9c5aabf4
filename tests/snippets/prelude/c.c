/* The variables the C blocks of the documents use without declaring them: a 32-byte key (the blocks
   pass 16 or 32 as its length), a 12-byte nonce and IV, 13 bytes of AAD, a 64-byte message, and output
   buffers of the sizes the blocks name (out: message + tag; back: the message opened again). A block
   that writes back must leave the message there. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
// IMPORTS

uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                   17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
uint8_t nonce[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce, 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};
uint8_t iv[12] = {0x5a, 0x17, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09};
uint8_t aad[13] = "header bytes";
uint8_t msg[64] = "attack at dawn";
uint8_t out[64 + 16], back[64];
size_t aad_len = sizeof aad, msg_len = sizeof msg, out_cap = sizeof out, back_cap = sizeof back;

int main(void) {
    memset(back, 0xaa, sizeof back);
    // BODY
    for (size_t i = 0; i < sizeof back; i++)
        if (back[i] != 0xaa) return memcmp(back, msg, sizeof back) != 0;
    return 0;
}
