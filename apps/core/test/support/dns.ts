import dns2 from 'dns2';

const { Packet } = dns2;

export interface ZoneRecords {
  A?: string[];
  AAAA?: string[];
  TXT?: string[][];
  MX?: { exchange: string; priority: number }[];
  CNAME?: string;
}

export interface TestDns {
  /** `127.0.0.1:PORT`, for LOYALTY_DNS_SERVERS. */
  server: string;
  /** Records by lower-case name; edit it between requests. */
  zone: Map<string, ZoneRecords>;
  close(): Promise<void>;
}

/** An authoritative DNS server on UDP and TCP (same port) answering from `zone`; other names are NXDOMAIN. */
export async function startTestDns(): Promise<TestDns> {
  const zone = new Map<string, ZoneRecords>();
  const handle: dns2.DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    const records = question ? zone.get(question.name.toLowerCase()) : undefined;
    if (!question || !records) {
      response.header.rcode = Packet.RCODE.NXDOMAIN;
    } else {
      const base = { name: question.name, class: Packet.CLASS.IN, ttl: 1 };
      const answers: object[] = [];
      if (question.type === Packet.TYPE.A) answers.push(...(records.A ?? []).map((address) => ({ ...base, type: Packet.TYPE.A, address })));
      if (question.type === Packet.TYPE.AAAA)
        answers.push(...(records.AAAA ?? []).map((address) => ({ ...base, type: Packet.TYPE.AAAA, address })));
      if (question.type === Packet.TYPE.TXT) answers.push(...(records.TXT ?? []).map((data) => ({ ...base, type: Packet.TYPE.TXT, data })));
      if (question.type === Packet.TYPE.MX) answers.push(...(records.MX ?? []).map((mx) => ({ ...base, type: Packet.TYPE.MX, ...mx })));
      if (question.type === Packet.TYPE.CNAME && records.CNAME) answers.push({ ...base, type: Packet.TYPE.CNAME, domain: records.CNAME });
      // dns2 encodes plain record objects; its typings ask for class instances.
      response.answers.push(...(answers as dns2.Packet.Resource[]));
    }
    void send(response);
  };
  // Large answers (DKIM keys) are retried over TCP on the same port. The UDP port the system picks
  // may be taken for TCP by another process: then both start again on a new port.
  for (let attempt = 1; ; attempt++) {
    const udp = dns2.createUDPServer(handle);
    await udp.listen(0, '127.0.0.1');
    const { port } = udp.address();
    const tcp = dns2.createTCPServer(handle);
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1');
        tcp.once('listening', () => resolve());
      });
    } catch (err) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if ((err as { code?: string }).code === 'EADDRINUSE' && attempt < 10) continue;
      throw err;
    }
    return running(udp, tcp, port, zone);
  }
}

function running(udp: dns2.UDPServer, tcp: dns2.TCPServer, port: number, zone: Map<string, ZoneRecords>): TestDns {
  return {
    server: `127.0.0.1:${port}`,
    zone,
    async close() {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
