// LuceneSearch: the Lucene 8.8 side of the search comparison
// (docs/benchmarks-search.md); invert's side is benchmarks/search_benchmark.cc
// (invert_search_benchmark), with the same modes and output formats.
//
//   LuceneSearch index LINES --index DIR [--ram-mb M]
//       Indexes pre-lowercased line documents (title<TAB>date<TAB>body, no
//       header) with WhitespaceAnalyzer and LineDocSchema's fields: id
//       StringField stored (the 1-based line number), title TextField stored,
//       date StoredField, body TextField not stored. One thread,
//       LogDocMergePolicy (merges adjacent segments only), then forceMerge(1):
//       one segment in line order (doc d is line d + 1; checked at the end).
//       Similarity: the default BM25Similarity (k1 1.2, b 0.75).
//   LuceneSearch agree --index DIR --queries FILE
//       Per query: "N<TAB>CLASS<TAB>COUNT<TAB>id:score ..." (the top 10 of
//       IndexSearcher.search(query, 10), stored ids, scores %.8e; COUNT is
//       IndexSearcher.count(query)).
//   LuceneSearch bench --index DIR --queries FILE [--k K] [--warmup W] [--passes P]
//       [--per-query FILE]  (one line per query: CLASS, "lucene", MEDIAN_US,
//       "-", EXPR, as invert_search_benchmark's --per-query)
//       One thread, query cache off. W warm-up passes over every query (JIT),
//       then P measured passes. Prints per class: "lucene default CLASS K N
//       MEDIAN_US P99_US QPS HITS" (HITS: mean TotalHits.value, "+" when some
//       were lower bounds: search(query, k) counts exactly up to 1,000 hits).
//
// Query files: benchmarks/search_query_file.h describes the format
// ("CLASS<TAB>EXPR", EXPR a prefix expression over the field body).

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.store.FSDirectory;

public final class LuceneSearch {
  private static final String FIELD = "body";

  public static void main(String[] args) throws Exception {
    if (args.length < 1) usage("missing mode");
    Map<String, String> flags = new HashMap<>();
    String positional = null;
    for (int i = 1; i < args.length; i++) {
      if (args[i].startsWith("-")) {
        if (i + 1 >= args.length) usage(args[i] + " wants a value");
        flags.put(args[i], args[++i]);
      } else if (positional == null) {
        positional = args[i];
      } else {
        usage("unexpected argument " + args[i]);
      }
    }
    switch (args[0]) {
      case "index":
        if (positional == null) usage("index wants LINES");
        index(positional, need(flags, "--index"), Double.parseDouble(flags.getOrDefault("--ram-mb", "1024")));
        break;
      case "agree":
        agree(need(flags, "--index"), need(flags, "--queries"));
        break;
      case "bench":
        bench(need(flags, "--index"), need(flags, "--queries"),
            Integer.parseInt(flags.getOrDefault("--k", "10")),
            Integer.parseInt(flags.getOrDefault("--warmup", "3")),
            Integer.parseInt(flags.getOrDefault("--passes", "3")),
            flags.get("--per-query"));
        break;
      default:
        usage("unknown mode " + args[0]);
    }
  }

  private static void usage(String what) {
    System.err.println("LuceneSearch: " + what);
    System.err.println("usage: LuceneSearch index LINES --index DIR [--ram-mb M]\n"
        + "       LuceneSearch agree --index DIR --queries FILE\n"
        + "       LuceneSearch bench --index DIR --queries FILE [--k K] [--warmup W] [--passes P]"
        + " [--per-query FILE]");
    System.exit(2);
  }

  private static String need(Map<String, String> flags, String name) {
    String v = flags.get(name);
    if (v == null) usage("missing " + name);
    return v;
  }

  // ---- index

  private static void index(String lines, String dir, double ramMb) throws IOException {
    IndexWriterConfig config = new IndexWriterConfig(new WhitespaceAnalyzer());
    config.setOpenMode(IndexWriterConfig.OpenMode.CREATE);
    config.setRAMBufferSizeMB(ramMb);
    config.setMergePolicy(new LogDocMergePolicy());
    long start = System.nanoTime();
    long docs = 0;
    try (IndexWriter writer = new IndexWriter(FSDirectory.open(Paths.get(dir)), config);
        BufferedReader in = Files.newBufferedReader(Paths.get(lines), StandardCharsets.UTF_8)) {
      Field id = new StringField("id", "", Field.Store.YES);
      Field title = new TextField("title", "", Field.Store.YES);
      Field date = new StoredField("date", "");
      Field body = new TextField("body", "", Field.Store.NO);
      Document doc = new Document();
      doc.add(id);
      doc.add(title);
      doc.add(date);
      doc.add(body);
      String line;
      long lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        String[] f = line.split("\t", -1);
        if (f.length != 3) throw new IOException("line " + lineNo + ": " + f.length + " fields");
        id.setStringValue(Long.toString(lineNo));
        title.setStringValue(f[0]);
        date.setStringValue(f[1]);
        body.setStringValue(f[2]);
        writer.addDocument(doc);
        docs++;
      }
      writer.commit();
      writer.forceMerge(1);
      writer.commit();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(Paths.get(dir)))) {
      int maxDoc = reader.maxDoc();
      for (int d : new int[] {0, maxDoc / 2, maxDoc - 1}) {
        if (maxDoc == 0) break;
        String got = reader.document(d).get("id");
        if (!Long.toString(d + 1L).equals(got)) {
          throw new IOException("doc " + d + " is line " + got + ", not " + (d + 1));
        }
      }
      System.out.printf(Locale.ROOT, "lucene index: %d docs, %d segment(s), %.1f s (doc d = line d + 1)%n",
          docs, reader.leaves().size(), seconds);
    }
  }

  // ---- query files

  static final class QueryLine {
    final String queryClass;
    final String expr;
    final Query query;

    QueryLine(String queryClass, String expr, Query query) {
      this.queryClass = queryClass;
      this.expr = expr;
      this.query = query;
    }
  }

  private static final class Parser {
    private final String[] tokens;
    private int pos;

    Parser(String expr) {
      this.tokens = Arrays.stream(expr.split(" ")).filter(t -> !t.isEmpty()).toArray(String[]::new);
    }

    Query parseAll() {
      Query q = parse();
      if (pos != tokens.length) throw new IllegalArgumentException("trailing tokens at " + pos);
      return q;
    }

    private String take() {
      if (pos >= tokens.length) throw new IllegalArgumentException("missing token at " + pos);
      return tokens[pos++];
    }

    private Query parse() {
      String op = take();
      switch (op) {
        case "term":
          return new TermQuery(new Term(FIELD, take()));
        case "prefix":
          return new PrefixQuery(new Term(FIELD, take()));
        case "phrase": {
          int slop = Integer.parseInt(take());
          int n = Integer.parseInt(take());
          String[] words = new String[n];
          for (int i = 0; i < n; i++) words[i] = take();
          return new PhraseQuery(slop, FIELD, words);
        }
        case "bool": {
          int msm = Integer.parseInt(take());
          int n = Integer.parseInt(take());
          BooleanQuery.Builder b = new BooleanQuery.Builder();
          b.setMinimumNumberShouldMatch(msm);
          for (int i = 0; i < n; i++) {
            String occ = take();
            Query clause = parse();
            switch (occ) {
              case "must":
                b.add(clause, BooleanClause.Occur.MUST);
                break;
              case "should":
                b.add(clause, BooleanClause.Occur.SHOULD);
                break;
              case "not":
                b.add(clause, BooleanClause.Occur.MUST_NOT);
                break;
              case "filter":
                b.add(clause, BooleanClause.Occur.FILTER);
                break;
              default:
                throw new IllegalArgumentException("unknown occur " + occ);
            }
          }
          return b.build();
        }
        case "boost": {
          float boost = Float.parseFloat(take());
          return new BoostQuery(parse(), boost);
        }
        default:
          throw new IllegalArgumentException("unknown operator " + op);
      }
    }
  }

  static List<QueryLine> readQueries(String path) throws IOException {
    List<QueryLine> out = new ArrayList<>();
    int lineNo = 0;
    for (String line : Files.readAllLines(Paths.get(path), StandardCharsets.UTF_8)) {
      lineNo++;
      if (line.isEmpty() || line.startsWith("#")) continue;
      int tab = line.indexOf('\t');
      if (tab < 0) throw new IOException(path + ":" + lineNo + ": no TAB");
      try {
        out.add(new QueryLine(line.substring(0, tab), line.substring(tab + 1),
            new Parser(line.substring(tab + 1)).parseAll()));
      } catch (RuntimeException e) {
        throw new IOException(path + ":" + lineNo + ": " + e.getMessage());
      }
    }
    return out;
  }

  private static IndexSearcher open(String dir) throws IOException {
    IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(FSDirectory.open(Paths.get(dir))));
    searcher.setQueryCache(null);
    return searcher;
  }

  // ---- agree

  private static void agree(String dir, String queryFile) throws IOException {
    IndexSearcher searcher = open(dir);
    List<QueryLine> queries = readQueries(queryFile);
    StringBuilder out = new StringBuilder();
    int n = 0;
    for (QueryLine q : queries) {
      TopDocs top = searcher.search(q.query, 10);
      int count = searcher.count(q.query);
      out.append(++n).append('\t').append(q.queryClass).append('\t').append(count).append('\t');
      for (int i = 0; i < top.scoreDocs.length; i++) {
        ScoreDoc sd = top.scoreDocs[i];
        if (i > 0) out.append(' ');
        out.append(searcher.doc(sd.doc).get("id")).append(':')
            .append(String.format(Locale.ROOT, "%.8e", (double) sd.score));
      }
      out.append('\n');
    }
    System.out.print(out);
  }

  // ---- bench

  private static final class Cell {
    long[] ns = new long[16];
    int n;
    double hits;
    boolean lowerBound;

    void add(long v) {
      if (n == ns.length) ns = Arrays.copyOf(ns, n * 2);
      ns[n++] = v;
    }
  }

  private static void bench(String dir, String queryFile, int k, int warmup, int passes,
      String perQuery) throws IOException {
    IndexSearcher searcher = open(dir);
    List<QueryLine> queries = readQueries(queryFile);
    long[][] queryNs = new long[queries.size()][passes];
    Map<String, Cell> cells = new LinkedHashMap<>();
    for (QueryLine q : queries) cells.computeIfAbsent(q.queryClass, c -> new Cell());
    long sink = 0;
    for (int pass = 0; pass < warmup + passes; pass++) {
      for (int qi = 0; qi < queries.size(); qi++) {
        QueryLine q = queries.get(qi);
        long t0 = System.nanoTime();
        TopDocs top = searcher.search(q.query, k);
        long t1 = System.nanoTime();
        sink += top.scoreDocs.length;
        if (pass < warmup) continue;
        Cell cell = cells.get(q.queryClass);
        cell.add(t1 - t0);
        queryNs[qi][pass - warmup] = t1 - t0;
        cell.hits += top.totalHits.value;
        cell.lowerBound |= top.totalHits.relation != TotalHits.Relation.EQUAL_TO;
      }
    }
    if (perQuery != null) {
      try (java.io.PrintWriter out = new java.io.PrintWriter(perQuery, "UTF-8")) {
        for (int qi = 0; qi < queries.size(); qi++) {
          long[] v = queryNs[qi].clone();
          Arrays.sort(v);
          out.printf(Locale.ROOT, "%s\tlucene\t%.1f\t-\t%s%n", queries.get(qi).queryClass,
              v[v.length / 2] / 1e3, queries.get(qi).expr);
        }
      }
    }
    System.out.println("# engine mode class k n median_us p99_us qps hits");
    for (Map.Entry<String, Cell> e : cells.entrySet()) {
      Cell c = e.getValue();
      long[] v = Arrays.copyOf(c.ns, c.n);
      Arrays.sort(v);
      long total = 0;
      for (long x : v) total += x;
      double median = v[v.length / 2] / 1e3;
      double p99 = v[Math.min(v.length - 1, (v.length * 99) / 100)] / 1e3;
      double qps = total == 0 ? 0 : v.length * 1e9 / total;
      System.out.printf(Locale.ROOT, "lucene default %s %d %d %.1f %.1f %.1f %.0f%s%n", e.getKey(), k,
          v.length, median, p99, qps, c.hits / v.length, c.lowerBound ? "+" : "");
    }
    if (sink < 0) System.out.println(sink);
  }
}
