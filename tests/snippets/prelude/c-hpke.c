/* The variables of docs/hpke.md's C block: info and AAD, a 64-byte message, a ciphertext buffer with
   room for the tag and a plaintext buffer. The block must open the message again into pt. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
// IMPORTS

uint8_t info[] = "example application, version 1";
uint8_t aad[13] = "header bytes";
uint8_t msg[64] = "attack at dawn";
uint8_t ct[64 + 16], pt[64];
size_t info_len = sizeof info, aad_len = sizeof aad, msg_len = sizeof msg, ct_cap = sizeof ct,
       pt_cap = sizeof pt;

int main(void) {
    memset(pt, 0xaa, sizeof pt);
    // BODY
    return memcmp(pt, msg, sizeof msg) != 0;
}
