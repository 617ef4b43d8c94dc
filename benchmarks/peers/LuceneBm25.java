// LuceneBm25: scores through Lucene 8.8's own BM25Similarity, for comparing
// invert's Bm25Scorer (src/search/bm25.h) with it bit for bit
// (scripts/bm25_vs_lucene.sh, docs/scoring.md).
//
//   java -cp <classes>:<lucene-core jar> LuceneBm25 random N SEED
//       N random inputs, one line each:
//         k1 b boost freq doc_count sum_total_term_freq norm n df_1..df_n score
//       k1, b, boost, freq and score as the hex bits of the float
//       (Float.floatToRawIntBits), the rest in decimal; n >= 2 is a phrase
//       (the scorer gets n TermStatistics and sums their idfs).
//   java ... LuceneBm25 norms
//       256 lines "byte byte4ToInt(byte)", then for lengths 0..2^20 and
//       random ones, "L intToByte4(L)" (the norm encoding's reference).
//
// The score is scorer(boost, CollectionStatistics, TermStatistics...)
// .score(freq, norm): Lucene's public path, nothing re-implemented here.
import java.util.Random;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.SmallFloat;

public final class LuceneBm25 {
  private LuceneBm25() {}

  // Log-uniform in [lo, hi].
  private static long logUniform(Random r, long lo, long hi) {
    double x = Math.exp(Math.log(lo) + r.nextDouble() * (Math.log(hi) - Math.log(lo)));
    long v = (long) x;
    return Math.max(lo, Math.min(hi, v));
  }

  private static String bits(float f) {
    return String.format("%08x", Float.floatToRawIntBits(f));
  }

  private static float pickFloat(Random r, float[] usual, float lo, float hi) {
    if (r.nextInt(3) > 0) return usual[r.nextInt(usual.length)];
    return lo + r.nextFloat() * (hi - lo);
  }

  private static void random(int n, long seed) {
    Random r = new Random(seed);
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; ++i) {
      float k1 = pickFloat(r, new float[] {1.2f, 0.9f, 2.0f, 0f}, 0f, 3f);
      float b = pickFloat(r, new float[] {0.75f, 0.4f, 1f, 0f}, 0f, 1f);
      float boost = pickFloat(r, new float[] {1f, 2f, 0.5f}, 0.01f, 10f);
      long docCount = logUniform(r, 1, 1L << 40);
      long maxDoc = docCount + (r.nextBoolean() ? 0 : logUniform(r, 1, docCount));
      int terms = r.nextInt(4) == 0 ? 2 + r.nextInt(3) : 1;
      long[] dfs = new long[terms];
      TermStatistics[] stats = new TermStatistics[terms];
      for (int t = 0; t < terms; ++t) {
        dfs[t] = r.nextInt(10) == 0 ? docCount : logUniform(r, 1, docCount);
        stats[t] = new TermStatistics(new BytesRef("t" + t), dfs[t], dfs[t]);
      }
      // sumDocFreq >= docCount and >= every df; sumTotalTermFreq >= sumDocFreq.
      long sumDocFreq = docCount * logUniform(r, 1, 300);
      long sumTotalTermFreq = sumDocFreq + (r.nextBoolean() ? 0 : logUniform(r, 1, sumDocFreq));
      if (r.nextInt(20) == 0) sumTotalTermFreq = sumDocFreq;
      CollectionStatistics field =
          new CollectionStatistics("body", maxDoc, docCount, sumTotalTermFreq, sumDocFreq);
      float freq = r.nextInt(4) == 0 ? r.nextFloat() * 50f : (float) logUniform(r, 1, 100000);
      int norm = r.nextInt(256);
      Similarity.SimScorer scorer = new BM25Similarity(k1, b).scorer(boost, field, stats);
      float score = scorer.score(freq, norm);
      out.append(bits(k1)).append(' ').append(bits(b)).append(' ').append(bits(boost))
          .append(' ').append(bits(freq)).append(' ').append(docCount).append(' ')
          .append(sumTotalTermFreq).append(' ').append(norm).append(' ').append(terms);
      for (long df : dfs) out.append(' ').append(df);
      out.append(' ').append(bits(score)).append('\n');
      if (out.length() > 1 << 16) {
        System.out.print(out);
        out.setLength(0);
      }
    }
    System.out.print(out);
  }

  private static void norms() {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < 256; ++i) {
      out.append(i).append(' ').append(SmallFloat.byte4ToInt((byte) i)).append('\n');
    }
    Random r = new Random(42);
    for (int i = 0; i <= (1 << 20) + 100000; ++i) {
      int length = i <= (1 << 20) ? i : r.nextInt(Integer.MAX_VALUE) + (r.nextBoolean() ? 1 : 0);
      out.append(length).append(' ').append(Byte.toUnsignedInt(SmallFloat.intToByte4(length)))
          .append('\n');
      if (out.length() > 1 << 16) {
        System.out.print(out);
        out.setLength(0);
      }
    }
    System.out.print(out);
  }

  public static void main(String[] args) {
    if (args.length == 3 && args[0].equals("random")) {
      random(Integer.parseInt(args[1]), Long.parseLong(args[2]));
    } else if (args.length == 1 && args[0].equals("norms")) {
      norms();
    } else {
      System.err.println("usage: LuceneBm25 random N SEED | LuceneBm25 norms");
      System.exit(2);
    }
  }
}
