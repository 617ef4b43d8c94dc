// LuceneIndexer: the Lucene 8.8 peer of invert-index for the end-to-end
// benchmark (docs/benchmarks-e2e.md). It indexes luceneutil-style line
// documents (title<TAB>date<TAB>body, optional FIELDS_HEADER_INDICATOR### first
// line) with the same fields, analysis and flush policy as invert-index, and
// prints one JSON line with the same keys.
//
//   java -cp build/peers/classes:<lucene-core jar> LuceneIndexer INPUT --index DIR
//        [--threads N] [--ram-mb M] [--term-vectors] [--max-docs N]
//        [--merge-policy tiered|none] [--force-merge N] [--json]
//
// Fields (as LineDocSchema in include/invert/line_docs.h):
//   id     StringField, stored: the header's `id` column, else the 1-based
//          physical line number (the header, when present, is line 1)
//   title  TextField, stored (docs, freqs, positions, norms)
//   date   StoredField (string)
//   body   TextField, not stored (docs, freqs, positions, norms); with
//          --term-vectors also term vectors with positions and offsets
// Analyzer: StandardAnalyzer without stop words. Writer: RAM buffer --ram-mb,
// flush by RAM only, no compound files, one commit at the end of indexing.
//
// Merges (--merge-policy, default none):
//   none    no merges while indexing (NoMergePolicy's behaviour); a forced
//           merge still merges, with TieredMergePolicy's forced-merge
//           selection (Lucene's NoMergePolicy would ignore forceMerge; invert's
//           NoMergePolicy does not)
//   tiered  Lucene's default TieredMergePolicy (its default options, except
//           that merged segments are not compound files either) with the
//           default ConcurrentMergeScheduler (threads and merges auto-detected,
//           auto IO throttle on; forced merges unthrottled)
// --force-merge N (default 0: none): after indexing and its commit,
// forceMerge(N) and a second commit, timed separately.
//
// Threads: one reader thread splits the input into batches of raw lines (bytes)
// and puts them on a bounded queue; --threads indexing threads take batches,
// decode and split each line and call addDocument with per-thread reused
// Document/Field instances, as luceneutil's Indexer does.
//
// Line parsing mirrors invert's OpenLineDocs: a UTF-8 BOM is skipped, a line
// ends at LF and a CR before it is dropped, header column names are
// doctitle|title, docdate|date|timestamp, body|text, id; a line with another
// number of fields than the header (3 without one) is skipped and counted.
//
// Output (stdout, one line): docs, seconds (input opened -> indexing done and
// committed; background merges may still run), docs_per_s, gb_per_hour (input
// bytes, 10^9), force_merge_seconds, close_seconds (waits for merges), merges
// (count, seconds, bytes read and written), bytes_written (every file the
// writer created, deleted ones included) and write_amplification (bytes
// written / final index bytes), segments, index_bytes, unique_terms (over
// segments and fields) and peak_rss_bytes (VmHWM) of the final index, plus
// details. Progress and errors go to stderr.

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.MergeScheduler;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.Version;

public final class LuceneIndexer {
  private static final String HEADER = "FIELDS_HEADER_INDICATOR###";
  private static final int BATCH_DOCS = 64;
  private static final int BATCH_BYTES = 256 << 10;
  private static final int READ_BYTES = 4 << 20;

  // ---- options ----
  private String input;
  private String indexPath;
  private int threads = 1;
  private double ramMb = 2048;
  private boolean termVectors;
  private long maxDocs = Long.MAX_VALUE;
  private String mergePolicy = "none";
  private int forceMerge; // 0: no forced merge

  // ---- columns (from the header, else title/date/body) ----
  private int columnCount = 3;
  private int titleCol = 0, dateCol = 1, bodyCol = 2, idCol = -1;

  // ---- shared state ----
  private final AtomicLong docsIndexed = new AtomicLong();
  private final AtomicLong linesSkipped = new AtomicLong();
  private final AtomicLong bytesConsumed = new AtomicLong();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /** Raw lines (without terminators) copied out of the read buffer. */
  private static final class Batch {
    byte[] data = new byte[BATCH_BYTES + 4096];
    int used;
    int[] start = new int[BATCH_DOCS];
    int[] end = new int[BATCH_DOCS];
    int[] terminatorBytes = new int[BATCH_DOCS];
    long firstLine;
    int count;

    void add(byte[] src, int from, int len, int termBytes) {
      if (used + len > data.length) {
        data = Arrays.copyOf(data, Math.max(data.length * 2, used + len));
      }
      System.arraycopy(src, from, data, used, len);
      start[count] = used;
      end[count] = used + len;
      terminatorBytes[count] = termBytes;
      used += len;
      count++;
    }

    boolean full() {
      return count == BATCH_DOCS || used >= BATCH_BYTES;
    }
  }

  private static final Batch POISON = new Batch();

  public static void main(String[] args) {
    LuceneIndexer indexer = new LuceneIndexer();
    try {
      indexer.parseArgs(args);
      indexer.run();
    } catch (IllegalArgumentException e) {
      System.err.println("LuceneIndexer: " + e.getMessage());
      System.err.println(
          "usage: LuceneIndexer INPUT --index DIR [--threads N] [--ram-mb M] [--term-vectors]"
              + " [--max-docs N] [--merge-policy tiered|none] [--force-merge N] [--json]");
      System.exit(2);
    } catch (Throwable t) {
      System.err.println("LuceneIndexer: failed: " + t);
      t.printStackTrace();
      System.exit(1);
    }
  }

  private void parseArgs(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--index":
          indexPath = value(args, ++i, a);
          break;
        case "--threads":
          threads = Integer.parseInt(value(args, ++i, a));
          break;
        case "--ram-mb":
          ramMb = Double.parseDouble(value(args, ++i, a));
          break;
        case "--term-vectors":
          termVectors = true;
          break;
        case "--max-docs":
          maxDocs = Long.parseLong(value(args, ++i, a));
          break;
        case "--merge-policy":
          mergePolicy = value(args, ++i, a);
          if (!mergePolicy.equals("tiered") && !mergePolicy.equals("none")) {
            throw new IllegalArgumentException("--merge-policy tiered|none");
          }
          break;
        case "--force-merge":
          forceMerge = Integer.parseInt(value(args, ++i, a));
          break;
        case "--json":
          break; // always prints JSON; accepted for symmetry with invert-index
        default:
          if (a.startsWith("--") || input != null) {
            throw new IllegalArgumentException("unknown argument: " + a);
          }
          input = a;
      }
    }
    if (input == null || indexPath == null) {
      throw new IllegalArgumentException("INPUT and --index DIR are required");
    }
    if (threads < 1 || ramMb <= 0 || maxDocs < 0 || forceMerge < 0) {
      throw new IllegalArgumentException(
          "--threads >= 1, --ram-mb > 0, --max-docs >= 0, --force-merge >= 0");
    }
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) throw new IllegalArgumentException(flag + " needs a value");
    return args[i];
  }

  private void parseHeader(String line) {
    String names = line.substring(HEADER.length());
    if (names.startsWith("\t")) names = names.substring(1);
    String[] parts = names.split("\t", -1);
    columnCount = parts.length;
    titleCol = dateCol = bodyCol = idCol = -1;
    for (int i = 0; i < parts.length; i++) {
      String n = parts[i];
      if ((n.equals("doctitle") || n.equals("title")) && titleCol < 0) titleCol = i;
      else if ((n.equals("docdate") || n.equals("date") || n.equals("timestamp")) && dateCol < 0)
        dateCol = i;
      else if ((n.equals("body") || n.equals("text")) && bodyCol < 0) bodyCol = i;
      else if (n.equals("id") && idCol < 0) idCol = i;
    }
    if (bodyCol < 0) {
      throw new IllegalArgumentException("line 1: the header names no body column: " + line);
    }
  }

  // ------------------------------------------------------- merge accounting

  /** Which part of the run a merge finished in. */
  private static final int PHASE_INDEXING = 0, PHASE_FORCE_MERGE = 1, PHASE_CLOSE = 2;

  /**
   * ConcurrentMergeScheduler with its defaults, counting the merges it runs
   * (doMerge runs one merge, synchronously, on the merge thread): count, wall
   * and CPU seconds of the merge threads, bytes read (the merged segments)
   * and written (the new segment), per phase of the run.
   */
  private static final class CountingMergeScheduler extends ConcurrentMergeScheduler {
    volatile int phase = PHASE_INDEXING;
    final LongAdder[] merges = adders(), nanos = adders(), cpuNanos = adders();
    final LongAdder[] bytesRead = adders(), bytesWritten = adders();
    private final ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();

    private static LongAdder[] adders() {
      return new LongAdder[] {new LongAdder(), new LongAdder(), new LongAdder()};
    }

    static long sum(LongAdder[] a) {
      return a[0].sum() + a[1].sum() + a[2].sum();
    }

    @Override
    protected void doMerge(MergeScheduler.MergeSource source, MergePolicy.OneMerge merge)
        throws IOException {
      long cpu0 = threadBean.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      super.doMerge(source, merge);
      long t1 = System.nanoTime();
      long cpu1 = threadBean.getCurrentThreadCpuTime();
      int p = phase;
      merges[p].increment();
      nanos[p].add(t1 - t0);
      if (cpu0 >= 0 && cpu1 >= 0) cpuNanos[p].add(cpu1 - cpu0);
      bytesRead[p].add(merge.totalBytesSize());
      SegmentCommitInfo info = merge.getMergeInfo();
      try {
        if (info != null) bytesWritten[p].add(info.sizeInBytes());
      } catch (IOException e) {
        // merged away already: its files are counted by CountingDirectory
      }
    }
  }

  /** No merges while indexing; forced merges as TieredMergePolicy picks them. */
  private static final class ForcedOnlyMergePolicy extends FilterMergePolicy {
    ForcedOnlyMergePolicy(MergePolicy in) {
      super(in);
    }

    @Override
    public MergeSpecification findMerges(
        MergeTrigger trigger, SegmentInfos infos, MergeContext context) {
      return null;
    }

    @Override
    public MergeSpecification findFullFlushMerges(
        MergeTrigger trigger, SegmentInfos infos, MergeContext context) {
      return null;
    }
  }

  /**
   * Counts the bytes of every file created through it, by IOContext (flush,
   * merge, other), deleted or renamed files included: a file's length is
   * added when it is deleted, and for the files still there at the end.
   * Nothing is added on the write path.
   */
  private static final class CountingDirectory extends FilterDirectory {
    private static final int FLUSH = 0, MERGE = 1, OTHER = 2;
    private final Map<String, Integer> created = new ConcurrentHashMap<>();
    private final LongAdder[] deletedBytes = {new LongAdder(), new LongAdder(), new LongAdder()};

    CountingDirectory(Directory in) {
      super(in);
    }

    private static int kind(IOContext context) {
      if (context.context == IOContext.Context.FLUSH) return FLUSH;
      if (context.context == IOContext.Context.MERGE) return MERGE;
      return OTHER;
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) throws IOException {
      IndexOutput out = in.createOutput(name, context);
      created.put(name, kind(context));
      return out;
    }

    @Override
    public IndexOutput createTempOutput(String prefix, String suffix, IOContext context)
        throws IOException {
      IndexOutput out = in.createTempOutput(prefix, suffix, context);
      created.put(out.getName(), kind(context));
      return out;
    }

    @Override
    public void deleteFile(String name) throws IOException {
      Integer k = created.remove(name);
      if (k != null) {
        try {
          deletedBytes[k].add(in.fileLength(name));
        } catch (IOException e) {
          // gone already
        }
      }
      in.deleteFile(name);
    }

    @Override
    public void rename(String source, String dest) throws IOException {
      in.rename(source, dest);
      Integer k = created.remove(source);
      if (k != null) created.put(dest, k);
    }

    /** Bytes written so far: [flush, merge, other]. */
    long[] bytesWritten() {
      long[] b = {deletedBytes[0].sum(), deletedBytes[1].sum(), deletedBytes[2].sum()};
      for (Map.Entry<String, Integer> e : created.entrySet()) {
        try {
          b[e.getValue()] += in.fileLength(e.getKey());
        } catch (IOException ex) {
          // deleted behind our back (not by the writer): not counted
        }
      }
      return b;
    }
  }

  private static long filesBytes(Directory dir) throws IOException {
    long bytes = 0;
    for (String f : dir.listAll()) bytes += dir.fileLength(f);
    return bytes;
  }

  // ----------------------------------------------------------------- run

  private void run() throws Exception {
    Path indexDir = Paths.get(indexPath);
    Files.createDirectories(indexDir);
    final long t0 = System.nanoTime();

    StandardAnalyzer analyzer = new StandardAnalyzer(CharArraySet.EMPTY_SET);
    IndexWriterConfig iwc = new IndexWriterConfig(analyzer);
    iwc.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
    iwc.setRAMBufferSizeMB(ramMb);
    iwc.setMaxBufferedDocs(IndexWriterConfig.DISABLE_AUTO_FLUSH);
    TieredMergePolicy tiered = new TieredMergePolicy(); // Lucene's defaults ...
    tiered.setNoCFSRatio(0.0); // ... but no compound files, like the flushed segments
    iwc.setMergePolicy(mergePolicy.equals("tiered") ? tiered : new ForcedOnlyMergePolicy(tiered));
    CountingMergeScheduler scheduler = new CountingMergeScheduler();
    iwc.setMergeScheduler(scheduler);
    iwc.setUseCompoundFile(false);
    iwc.setCommitOnClose(true); // close() waits for merges, then commits

    final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(2 * threads + 4);
    long flushStartNs, t1, t2, t3;
    int segmentsAtCommit;
    long indexBytesAtCommit;
    long[] written;
    try (CountingDirectory dir = new CountingDirectory(FSDirectory.open(indexDir));
        InputStream in = new FileInputStream(input)) {
      final IndexWriter writer = new IndexWriter(dir, iwc);
      Thread reader = new Thread(() -> readLoop(in, queue), "line-reader");
      reader.setDaemon(true);
      reader.start();
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Thread w = new Thread(() -> indexLoop(writer, queue), "indexer-" + t);
        w.start();
        workers.add(w);
      }
      for (Thread w : workers) w.join();
      stop.set(true);
      reader.join();
      if (failure.get() != null) {
        writer.rollback();
        throw new RuntimeException("indexing failed", failure.get());
      }
      flushStartNs = System.nanoTime();
      writer.commit();
      t1 = System.nanoTime();
      // The commit just written (a file read; merges keep running meanwhile).
      SegmentInfos committed = SegmentInfos.readLatestCommit(dir);
      segmentsAtCommit = committed.size();
      indexBytesAtCommit = 0;
      for (SegmentCommitInfo info : committed) indexBytesAtCommit += info.sizeInBytes();
      scheduler.phase = PHASE_FORCE_MERGE;
      if (forceMerge > 0) {
        writer.forceMerge(forceMerge);
        writer.commit();
      }
      t2 = System.nanoTime();
      scheduler.phase = PHASE_CLOSE;
      writer.close();
      t3 = System.nanoTime();
      written = dir.bytesWritten();
    }
    double seconds = (t1 - t0) / 1e9;
    double commitS = (t1 - flushStartNs) / 1e9;
    double forceMergeS = (t2 - t1) / 1e9;
    double closeS = (t3 - t2) / 1e9;

    // Index statistics (not timed).
    long indexBytes;
    int segments = 0;
    List<Long> segmentTerms = new ArrayList<>();
    long bodyTokens = 0;
    long uniqueTerms = 0; // over segments and indexed fields, as invert-index's unique_terms
    try (Directory dir = FSDirectory.open(indexDir)) {
      indexBytes = filesBytes(dir);
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        segments = r.leaves().size();
        for (LeafReaderContext ctx : r.leaves()) {
          Terms terms = ctx.reader().terms("body");
          segmentTerms.add(terms == null ? 0L : terms.size());
          if (terms != null) bodyTokens += terms.getSumTotalTermFreq();
          for (FieldInfo fi : ctx.reader().getFieldInfos()) {
            if (fi.getIndexOptions() == IndexOptions.NONE) continue;
            Terms t = ctx.reader().terms(fi.name);
            if (t != null) uniqueTerms += t.size();
          }
        }
      }
    }

    long gcMs = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcMs += Math.max(0, gc.getCollectionTime());
    }
    long docs = docsIndexed.get();
    long bytes = bytesConsumed.get();
    long bytesWritten = written[0] + written[1] + written[2];
    double mergeS = CountingMergeScheduler.sum(scheduler.nanos) / 1e9;
    long mergeWritten = CountingMergeScheduler.sum(scheduler.bytesWritten);
    StringBuilder sb = new StringBuilder();
    sb.append('{');
    kv(sb, "engine", "\"lucene\"");
    kv(sb, "lucene_version", "\"" + Version.LATEST + "\"");
    kv(sb, "java_version", "\"" + System.getProperty("java.version") + "\"");
    kv(sb, "threads", Integer.toString(threads));
    kv(sb, "ram_mb", fmt(ramMb));
    kv(sb, "term_vectors", Boolean.toString(termVectors));
    kv(sb, "merge_policy", "\"" + mergePolicy + "\"");
    kv(sb, "force_merge", Integer.toString(forceMerge));
    kv(sb, "docs", Long.toString(docs));
    kv(sb, "skipped_lines", Long.toString(linesSkipped.get()));
    kv(sb, "input_bytes", Long.toString(bytes));
    kv(sb, "seconds", fmt(seconds));
    kv(sb, "commit_seconds", fmt(commitS));
    kv(sb, "force_merge_seconds", forceMerge > 0 ? fmt(forceMergeS) : "null");
    kv(sb, "close_seconds", fmt(closeS));
    kv(sb, "gc_seconds", fmt(gcMs / 1e3));
    kv(sb, "docs_per_s", fmt(docs / seconds));
    kv(sb, "gb_per_hour", fmt(bytes / 1e9 / (seconds / 3600.0)));
    kv(sb, "segments_at_commit", Integer.toString(segmentsAtCommit));
    kv(sb, "index_bytes_at_commit", Long.toString(indexBytesAtCommit));
    kv(sb, "merge_threads", Integer.toString(scheduler.getMaxThreadCount()));
    kv(sb, "merge_max_pending", Integer.toString(scheduler.getMaxMergeCount()));
    kv(sb, "merge_io_rate_limit_mb_per_s", fmt(scheduler.getIORateLimitMBPerSec()));
    kv(sb, "merges", Long.toString(CountingMergeScheduler.sum(scheduler.merges)));
    kv(sb, "merges_indexing", Long.toString(scheduler.merges[PHASE_INDEXING].sum()));
    kv(sb, "merges_force_merge", Long.toString(scheduler.merges[PHASE_FORCE_MERGE].sum()));
    kv(sb, "merges_close", Long.toString(scheduler.merges[PHASE_CLOSE].sum()));
    kv(sb, "merge_seconds", fmt(mergeS));
    kv(sb, "merge_cpu_seconds", fmt(CountingMergeScheduler.sum(scheduler.cpuNanos) / 1e9));
    kv(sb, "force_merge_merge_seconds", fmt(scheduler.nanos[PHASE_FORCE_MERGE].sum() / 1e9));
    kv(sb, "merge_bytes_read", Long.toString(CountingMergeScheduler.sum(scheduler.bytesRead)));
    kv(sb, "merge_bytes_written", Long.toString(mergeWritten));
    kv(sb, "merge_mb_per_s", mergeS > 0 ? fmt(mergeWritten / 1e6 / mergeS) : "null");
    kv(sb, "flush_bytes_written", Long.toString(written[0]));
    kv(sb, "merge_files_bytes_written", Long.toString(written[1]));
    kv(sb, "bytes_written", Long.toString(bytesWritten));
    kv(sb, "write_amplification", indexBytes > 0 ? fmt((double) bytesWritten / indexBytes) : "null");
    kv(sb, "segments", Integer.toString(segments));
    kv(sb, "index_bytes", Long.toString(indexBytes));
    kv(sb, "unique_terms", Long.toString(uniqueTerms));
    kv(sb, "body_tokens", Long.toString(bodyTokens));
    kv(sb, "segment_body_terms", segmentTerms.toString().replace(" ", ""));
    kv(sb, "peak_rss_bytes", Long.toString(peakRssBytes()));
    sb.setLength(sb.length() - 1);
    sb.append('}');
    System.out.println(sb);
  }

  private static void kv(StringBuilder sb, String key, String jsonValue) {
    sb.append('"').append(key).append("\":").append(jsonValue).append(',');
  }

  private static String fmt(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) return "null";
    return new BigDecimal(String.format(Locale.ROOT, "%.6g", v)).stripTrailingZeros().toPlainString();
  }

  /** VmHWM from /proc/self/status, 0 where unavailable. */
  private static long peakRssBytes() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          String[] p = line.trim().split("\\s+");
          return Long.parseLong(p[1]) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return 0;
  }

  // ---------------------------------------------------------------- reader

  private void put(BlockingQueue<Batch> queue, Batch b) throws InterruptedException {
    while (!queue.offer(b, 50, TimeUnit.MILLISECONDS)) {
      if (stop.get()) return;
    }
  }

  private void readLoop(InputStream in, BlockingQueue<Batch> queue) {
    try {
      byte[] buf = new byte[READ_BYTES];
      int len = 0; // valid bytes in buf
      int pos = 0; // start of the current (incomplete) line
      int scan = 0; // bytes before this hold no LF past pos
      long lineNo = 0;
      boolean eof = false;
      boolean first = true;
      Batch batch = null;
      while (!stop.get()) {
        // Find the next LF from pos.
        int nl = -1;
        for (int i = Math.max(pos, scan); i < len; i++) {
          if (buf[i] == '\n') {
            nl = i;
            break;
          }
        }
        if (nl < 0) {
          if (eof) {
            if (pos == len) break; // no last line without LF
            nl = len; // last line without LF
          } else {
            // Compact and read more.
            scan = len;
            if (pos > 0) {
              System.arraycopy(buf, pos, buf, 0, len - pos);
              len -= pos;
              scan -= pos;
              pos = 0;
            }
            if (len == buf.length) buf = Arrays.copyOf(buf, buf.length * 2);
            int n = in.read(buf, len, buf.length - len);
            if (n < 0) eof = true;
            else len += n;
            continue;
          }
        }
        int lineStart = pos;
        int lineEnd = nl;
        int term = nl < len ? 1 : 0;
        pos = nl + term;
        lineNo++;
        int prefix = 0;
        if (first) {
          first = false;
          if (lineEnd - lineStart >= 3 && (buf[lineStart] & 0xff) == 0xEF
              && (buf[lineStart + 1] & 0xff) == 0xBB && (buf[lineStart + 2] & 0xff) == 0xBF) {
            lineStart += 3; // BOM
            prefix = 3;
          }
        }
        if (lineEnd > lineStart && buf[lineEnd - 1] == '\r') {
          lineEnd--;
          term++;
        }
        if (lineNo == 1 && startsWith(buf, lineStart, lineEnd, HEADER)) {
          parseHeader(new String(buf, lineStart, lineEnd - lineStart, StandardCharsets.UTF_8));
          bytesConsumed.addAndGet(prefix + lineEnd - lineStart + term);
          continue;
        }
        if (batch == null) {
          batch = new Batch();
          batch.firstLine = lineNo;
        }
        batch.add(buf, lineStart, lineEnd - lineStart, term + prefix);
        if (batch.full()) {
          put(queue, batch);
          batch = null;
        }
      }
      if (batch != null && !stop.get()) put(queue, batch);
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
    } finally {
      // One poison per worker; workers also stop on `stop`.
      for (int i = 0; i < threads; i++) {
        try {
          put(queue, POISON);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private static boolean startsWith(byte[] b, int from, int to, String prefix) {
    if (to - from < prefix.length()) return false;
    for (int i = 0; i < prefix.length(); i++) {
      if (b[from + i] != (byte) prefix.charAt(i)) return false;
    }
    return true;
  }

  // --------------------------------------------------------------- indexing

  private void indexLoop(IndexWriter writer, BlockingQueue<Batch> queue) {
    try {
      FieldType bodyType = new FieldType(TextField.TYPE_NOT_STORED);
      bodyType.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS);
      bodyType.setOmitNorms(false);
      if (termVectors) {
        bodyType.setStoreTermVectors(true);
        bodyType.setStoreTermVectorPositions(true);
        bodyType.setStoreTermVectorOffsets(true);
      }
      bodyType.freeze();
      Field id = new StringField("id", "", Field.Store.YES);
      Field title = new Field("title", "", TextField.TYPE_STORED);
      Field date = new StoredField("date", "");
      Field body = new Field("body", "", bodyType);
      Document doc = new Document();
      doc.add(id);
      doc.add(title);
      doc.add(date);
      doc.add(body);

      int[] fieldStart = new int[columnCount];
      int[] fieldEnd = new int[columnCount];
      while (true) {
        Batch b = queue.poll(50, TimeUnit.MILLISECONDS);
        if (b == null) {
          if (stop.get() || failure.get() != null) return;
          continue;
        }
        if (b == POISON || failure.get() != null) return;
        for (int i = 0; i < b.count; i++) {
          int s = b.start[i], e = b.end[i];
          if (!split(b.data, s, e, fieldStart, fieldEnd)) {
            linesSkipped.incrementAndGet();
            bytesConsumed.addAndGet(e - s + b.terminatorBytes[i]);
            continue;
          }
          if (docsIndexed.incrementAndGet() > maxDocs) {
            docsIndexed.decrementAndGet();
            stop.set(true);
            return;
          }
          bytesConsumed.addAndGet(e - s + b.terminatorBytes[i]);
          long lineNo = b.firstLine + i;
          id.setStringValue(idCol >= 0 ? str(b.data, fieldStart[idCol], fieldEnd[idCol])
                                       : Long.toString(lineNo));
          title.setStringValue(titleCol >= 0 ? str(b.data, fieldStart[titleCol], fieldEnd[titleCol]) : "");
          date.setStringValue(dateCol >= 0 ? str(b.data, fieldStart[dateCol], fieldEnd[dateCol]) : "");
          body.setStringValue(str(b.data, fieldStart[bodyCol], fieldEnd[bodyCol]));
          writer.addDocument(doc);
        }
      }
    } catch (Throwable t) {
      failure.compareAndSet(null, t);
      stop.set(true);
    }
  }

  private static String str(byte[] b, int from, int to) {
    return new String(b, from, to - from, StandardCharsets.UTF_8);
  }

  /** Splits [from, to) at TABs into exactly columnCount fields. */
  private boolean split(byte[] b, int from, int to, int[] fs, int[] fe) {
    int f = 0;
    int s = from;
    for (int i = from; i < to; i++) {
      if (b[i] == '\t') {
        if (f == columnCount - 1) return false;
        fs[f] = s;
        fe[f] = i;
        f++;
        s = i + 1;
      }
    }
    if (f != columnCount - 1) return false;
    fs[f] = s;
    fe[f] = to;
    return true;
  }
}
