/**
 * CRC-16/IBM (also called CRC-16/ARC): polynomial 0x8005 processed LSB first (0xA001), initial value 0, no final
 * XOR. Teltonika computes it over an AVL packet from the codec id to the second record count.
 */
export function crc16Ibm(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}
