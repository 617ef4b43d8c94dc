// The Lucene 8.8 side of the terms-hash microbenchmark
// (benchmarks/terms_hash_benchmark.cc; scripts/bench_terms_hash.sh --with-lucene).
//
// Loads a token stream written by invert_dump_workload (the very bytes invert's
// benchmark indexes), and feeds it through Lucene's indexing chain
// (IndexWriter.addDocument) as a pre-analyzed TokenStream over arrays:
// CharTermAttribute and PositionIncrementAttribute (always 1), no analysis,
// into one field indexed with DOCS_AND_FREQS_AND_POSITIONS (not stored, no
// norms, no term vectors), in documents of 1,000 tokens. One iteration builds
// one segment in a fresh IndexWriter over a ByteBuffersDirectory (heap, no
// disk) with a RAM buffer large enough that nothing flushes while adding
// (checked: every document still buffered, no .si written), and times
//   add    every addDocument: Lucene's indexSegment
//   flush  IndexWriter.flush() of that segment (sort + write every file of
//          the segment to the heap directory); add + flush is Lucene's
//          indexSegmentAndSort in the comparison table.
// JMH-like discipline by hand: warm-up iterations, then measured iterations,
// each one a whole segment; System.gc() between iterations, untimed. A fork
// is one JVM launch (the script launches several, with -Xms = -Xmx and
// -XX:+AlwaysPreTouch). Prints one JSON line: the file's token count,
// distinct count and hash as recomputed here, the flushed segment's term count
// and token count as Lucene's reader reports them (checked against the file
// header), and per measured iteration the add and flush ns per token.
//
// usage: LuceneTermsHash TOKENS_FILE [--warmup N] [--iterations N] [--ram-mb M]
//        [--fork K] [--label NAME]

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Terms;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.Version;

public final class LuceneTermsHash {
  static final String FIELD = "body";

  /** The token stream of one file: chars of every token back to back. */
  static final class Stream {
    long tokens;
    long distinct;  // from the file header (invert's count)
    long headerHash;
    long hash;  // recomputed over the loaded bytes
    int tokensPerDoc;
    char[] chars;
    int[] starts;  // tokens + 1 offsets into chars
  }

  static Stream load(String path) throws IOException {
    byte[] file = Files.readAllBytes(Paths.get(path));
    ByteBuffer in = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
    byte[] magic = new byte[8];
    in.get(magic);
    if (!new String(magic, "US-ASCII").equals("INVTOKS1")) {
      throw new IOException(path + ": not an invert_dump_workload file");
    }
    Stream s = new Stream();
    s.tokens = in.getLong();
    s.distinct = in.getLong();
    s.headerHash = in.getLong();
    s.tokensPerDoc = in.getInt();
    if (s.tokens > Integer.MAX_VALUE - 1) throw new IOException("too many tokens");
    int n = (int) s.tokens;
    int body = in.position();
    s.chars = new char[file.length - body - n];
    s.starts = new int[n + 1];
    long h = 0xcbf29ce484222325L;  // FNV-1a 64 over (length byte, bytes) per token
    int p = body;
    int c = 0;
    for (int t = 0; t < n; ++t) {
      s.starts[t] = c;
      int len = file[p] & 0xff;
      h = (h ^ len) * 0x100000001b3L;
      ++p;
      for (int i = 0; i < len; ++i, ++p) {
        int b = file[p] & 0xff;
        if (b >= 0x80) throw new IOException(path + ": non-ASCII byte in token " + t);
        h = (h ^ b) * 0x100000001b3L;
        s.chars[c++] = (char) b;
      }
    }
    s.starts[n] = c;
    if (p != file.length || c != s.chars.length) throw new IOException(path + ": bad length");
    s.hash = h;
    return s;
  }

  /** A pre-analyzed stream over tokens [from, to) of the arrays. */
  static final class ArrayTokenStream extends TokenStream {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final PositionIncrementAttribute posInc =
        addAttribute(PositionIncrementAttribute.class);
    private final char[] chars;
    private final int[] starts;
    private int next;
    private int from;
    private int to;

    ArrayTokenStream(Stream s) {
      this.chars = s.chars;
      this.starts = s.starts;
    }

    void setRange(int from, int to) {
      this.from = from;
      this.to = to;
    }

    @Override
    public void reset() throws IOException {
      super.reset();
      next = from;
    }

    @Override
    public boolean incrementToken() {
      if (next >= to) return false;
      clearAttributes();
      int start = starts[next];
      term.copyBuffer(chars, start, starts[next + 1] - start);
      posInc.setPositionIncrement(1);
      ++next;
      return true;
    }
  }

  static long gcMillis() {
    long total = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionTime());
    }
    return total;
  }

  static final class Result {
    long addNanos;
    long flushNanos;
    long ramBytes;
    long gcMillisAdd;
  }

  static Result runOnce(Stream s, double ramMb, boolean verify) throws IOException {
    FieldType type = new FieldType();
    type.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS);
    type.setTokenized(true);
    type.setStored(false);
    type.setOmitNorms(true);
    type.freeze();
    ArrayTokenStream ts = new ArrayTokenStream(s);
    Field field = new Field(FIELD, ts, type);
    Document doc = new Document();
    doc.add(field);

    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig();
    config.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
    config.setRAMBufferSizeMB(ramMb);
    config.setRAMPerThreadHardLimitMB(2047);
    config.setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH);
    config.setMergePolicy(NoMergePolicy.INSTANCE);
    config.setUseCompoundFile(false);
    config.setCommitOnClose(false);
    IndexWriter writer = new IndexWriter(dir, config);

    int n = (int) s.tokens;
    int perDoc = s.tokensPerDoc;
    Result r = new Result();
    long gc0 = gcMillis();
    long t0 = System.nanoTime();
    for (int start = 0; start < n; start += perDoc) {
      ts.setRange(start, Math.min(n, start + perDoc));
      writer.addDocument(doc);
    }
    long t1 = System.nanoTime();
    r.gcMillisAdd = gcMillis() - gc0;
    r.ramBytes = writer.ramBytesUsed();
    int docs = (n + perDoc - 1) / perDoc;
    if (writer.numRamDocs() != docs || Arrays.stream(dir.listAll()).anyMatch(f -> f.endsWith(".si"))) {
      // (The stored-fields writer opens its files at the first document, so
      // the directory is not empty; a flushed segment would write a .si.)
      throw new IllegalStateException("a segment was flushed while adding (" + writer.numRamDocs()
          + " of " + docs + " documents buffered): raise --ram-mb");
    }
    long t2 = System.nanoTime();
    writer.flush();
    long t3 = System.nanoTime();
    r.addNanos = t1 - t0;
    r.flushNanos = t3 - t2;
    if (verify) verifySegment(writer, dir, s);
    writer.rollback();
    dir.close();
    return r;
  }

  static long segmentTerms = -1;
  static long segmentTokens = -1;
  static int segmentDocs = -1;

  /** Commits (untimed) and reads back what Lucene indexed. */
  static void verifySegment(IndexWriter writer, ByteBuffersDirectory dir, Stream s)
      throws IOException {
    writer.commit();
    try (DirectoryReader reader = DirectoryReader.open(dir)) {
      if (reader.leaves().size() != 1) {
        throw new IllegalStateException("expected one segment, got " + reader.leaves().size());
      }
      LeafReader leaf = reader.leaves().get(0).reader();
      Terms terms = leaf.terms(FIELD);
      segmentTerms = terms.size();
      segmentTokens = terms.getSumTotalTermFreq();
      segmentDocs = terms.getDocCount();
    }
    if (segmentTerms != s.distinct || segmentTokens != s.tokens) {
      throw new IllegalStateException("Lucene indexed " + segmentTerms + " terms / " + segmentTokens
          + " tokens; the file says " + s.distinct + " / " + s.tokens);
    }
  }

  static double median(double[] v) {
    double[] c = v.clone();
    Arrays.sort(c);
    int m = c.length / 2;
    return c.length % 2 == 1 ? c[m] : (c[m - 1] + c[m]) / 2;
  }

  static String list(double[] v) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < v.length; ++i) {
      if (i > 0) b.append(',');
      b.append(String.format(Locale.ROOT, "%.2f", v[i]));
    }
    return b.append(']').toString();
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: LuceneTermsHash TOKENS_FILE [--warmup N] [--iterations N]"
          + " [--ram-mb M] [--fork K] [--label NAME]");
      System.exit(2);
    }
    String path = args[0];
    int warmup = 3;
    int iterations = 5;
    double ramMb = 2000;
    int fork = 0;
    String label = "";
    for (int i = 1; i < args.length; ++i) {
      switch (args[i]) {
        case "--warmup": warmup = Integer.parseInt(args[++i]); break;
        case "--iterations": iterations = Integer.parseInt(args[++i]); break;
        case "--ram-mb": ramMb = Double.parseDouble(args[++i]); break;
        case "--fork": fork = Integer.parseInt(args[++i]); break;
        case "--label": label = args[++i]; break;
        default:
          System.err.println("unknown argument: " + args[i]);
          System.exit(2);
      }
    }
    Stream s = load(path);
    if (s.hash != s.headerHash) {
      throw new IllegalStateException(String.format(Locale.ROOT,
          "%s: hash of the loaded tokens %016x differs from the header's %016x", path, s.hash,
          s.headerHash));
    }
    List<Result> measured = new ArrayList<>();
    for (int i = 0; i < warmup + iterations; ++i) {
      System.gc();
      // The first warm-up iteration (or the first measured one without warm-up)
      // also commits and reads the segment back, untimed.
      Result r = runOnce(s, ramMb, i == 0);
      if (i >= warmup) measured.add(r);
    }
    int m = measured.size();
    double[] add = new double[m];
    double[] flush = new double[m];
    double[] total = new double[m];
    double[] ram = new double[m];
    double[] gc = new double[m];
    for (int i = 0; i < m; ++i) {
      Result r = measured.get(i);
      add[i] = (double) r.addNanos / s.tokens;
      flush[i] = (double) r.flushNanos / s.tokens;
      total[i] = (double) (r.addNanos + r.flushNanos) / s.tokens;
      ram[i] = (double) r.ramBytes / s.tokens;
      gc[i] = r.gcMillisAdd;
    }
    System.out.println(String.format(Locale.ROOT,
        "{\"engine\":\"lucene\",\"lucene_version\":\"%s\",\"java\":\"%s\",\"label\":\"%s\","
            + "\"file\":\"%s\",\"fork\":%d,\"warmup\":%d,\"iterations\":%d,\"tokens\":%d,"
            + "\"distinct\":%d,\"hash\":\"%016x\",\"segment_terms\":%d,\"segment_tokens\":%d,"
            + "\"segment_docs\":%d,\"add_ns_per_token\":%s,\"flush_ns_per_token\":%s,"
            + "\"add_flush_ns_per_token\":%s,\"add_median\":%.2f,\"flush_median\":%.2f,"
            + "\"add_flush_median\":%.2f,\"ram_bytes_per_token\":%.2f,\"gc_ms_during_add\":%s}",
        Version.LATEST, System.getProperty("java.version"), label, path, fork, warmup,
        iterations, s.tokens, s.distinct, s.hash, segmentTerms, segmentTokens, segmentDocs,
        list(add), list(flush), list(total), median(add), median(flush), median(total),
        median(ram), list(gc)));
  }
}
