/**
 * The device's side of a Teltonika TCP connection: what the protocol simulator, the device benchmark and the
 * listener's tests speak through. A unit sends its IMEI, waits for 01, then sends one AVL packet at a time and waits
 * for the 4-byte record count before the next.
 */
import { Socket } from 'node:net';
import { encodeImei } from './encode.ts';

/** The connection closed (or timed out) before the bytes awaited arrived. */
export class ConnectionClosed extends Error {}

/** Bytes as they arrive on one connection, read in order by `read(n)`. */
export class DeviceSocket {
  private received: Buffer = Buffer.alloc(0);
  private ended = false;
  private wake: () => void = () => undefined;
  private readonly socket: Socket;
  readonly closed: Promise<void>;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      }),
    );
  }

  static connect(host: string, port: number): Promise<DeviceSocket> {
    return new Promise((resolve, reject) => {
      const socket = new Socket();
      socket.once('error', reject);
      socket.connect(port, host, () => {
        socket.off('error', reject);
        resolve(new DeviceSocket(socket));
      });
    });
  }

  write(bytes: Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** The next `length` bytes; ConnectionClosed when the connection ends first or nothing comes within `timeoutMs`. */
  async read(length: number, timeoutMs: number): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < length) {
      if (this.ended) throw new ConnectionClosed(`connection closed after ${this.received.length} of ${length} bytes`);
      const left = deadline - Date.now();
      if (left <= 0) throw new ConnectionClosed(`no answer within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const bytes = this.received.subarray(0, length);
    this.received = this.received.subarray(length);
    return bytes;
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A unit after a successful handshake: `send` resolves with the record count the server acknowledged. */
export class TeltonikaDevice {
  readonly connection: DeviceSocket;
  private readonly timeoutMs: number;

  private constructor(connection: DeviceSocket, timeoutMs: number) {
    this.connection = connection;
    this.timeoutMs = timeoutMs;
  }

  /** Connects and sends the IMEI; rejects when the server answers 00 (not a registered IMEI) or nothing. */
  static async connect(host: string, port: number, imei: string, timeoutMs = 10_000): Promise<TeltonikaDevice> {
    const connection = await DeviceSocket.connect(host, port);
    await connection.write(encodeImei(imei));
    const [answer] = await connection.read(1, timeoutMs).catch((error) => {
      connection.close();
      throw error;
    });
    if (answer !== 0x01) {
      connection.close();
      throw new ConnectionClosed(`the server refused IMEI ${imei} (answered ${answer})`);
    }
    return new TeltonikaDevice(connection, timeoutMs);
  }

  async send(packet: Buffer): Promise<number> {
    await this.connection.write(packet);
    return (await this.connection.read(4, this.timeoutMs)).readUInt32BE(0);
  }

  close(): void {
    this.connection.close();
  }
}
