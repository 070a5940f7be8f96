// SPDX-License-Identifier: Apache-2.0
// ane_kernel_extract: the kernel extract of the neural-engine core (ARCHITECTURE: kernel
// extract; NUMERICS N-6, N-2.4; docs/kernel_extract.md).
//
// Reads a stream of compressed kernel groups (64-bit beats, the format of
// docs/kernel_extract.md and tb/oracle/kernel_codec.h) and hands out one operation per cycle:
// the coefficient of kernel A (and B in the fp16 two-kernel mode, B, C and D in the fp16
// four-kernel mode) for one (step, slot) of the schedule, with the step's input coordinates (c, ky, kx), the slot and first/last flags.
// Each group's per-kernel post-processing parameters leave on their own port.
//
//   schedule   for quad g: for step s in 4g .. 4g+3: for slot j kept in quad g
//   skip       a sparse group drops block (g, j) when every keep bit in it is 0 (A and B) and
//              g is neither the first nor the last quad: such a quad adds +0 to the slot, so no
//              result changes (N-6.3 with N-2.4); a quad with every block dropped costs one
//              cycle without an operation
//   decode     fp16 as is; int8sym RNE16(scale * q) (N-6.1, the elementwise fp16 multiply);
//              palette table[index] (N-6.2); raw8 / raw4 sign-extended; a dropped coefficient
//              is +0 (N-6.3)
//
// Configuration (written while busy_o is low): cfg_wdata_i is the core's KEXT register
// (ane_regs_pkg::core_kext_t: C, KH, KW; docs/core.md); the reduction has K = C * KH * KW steps
// (N-2 order: for c: for ky: for kx).
// Timing: one operation per cycle while the stream keeps up (64 bits per cycle in, at most 96
// bits used in one cycle), header words one per cycle (parameters one kernel per cycle),
// latency 4 from the cycle the bits are in the buffer: stage P (the fields), then the decode in
// three stages D1, D2, O (the int8sym multiply is ane_fp16_mul with Pipe = 1; the other formats'
// values wait beside it).
`default_nettype none

module ane_kernel_extract (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // configuration
  input  wire logic        cfg_we_i,
  input  wire ane_regs_pkg::core_kext_t cfg_wdata_i,
  output      logic        busy_o,
  // compressed kernel stream
  input  wire logic        kin_valid_i,
  output      logic        kin_ready_o,
  input  wire logic [63:0] kin_data_i,
  // per-kernel post-processing parameters (N-3.1)
  output      logic        pp_valid_o,
  input  wire logic        pp_ready_i,
  output      logic [4:0]  pp_kernel_o,
  output      logic [15:0] pp_scale_o,
  output      logic [31:0] pp_bias_o,
  // operations
  output      logic        op_valid_o,
  input  wire logic        op_ready_i,
  output      logic [15:0] op_coef_a_o,
  output      logic [15:0] op_coef_b_o,
  output      logic [15:0] op_coef_c_o,
  output      logic [15:0] op_coef_d_o,
  output      logic [9:0]  op_c_o,
  output      logic [2:0]  op_ky_o,
  output      logic [2:0]  op_kx_o,
  output      logic [2:0]  op_slot_o,
  output      logic        op_first_o,
  output      logic        op_last_o,
  output      logic        op_end_o     // the last operation of the group
);

  typedef enum logic [2:0] {
    SHdr  = 3'd0,
    SPal  = 3'd1,
    SScl  = 3'd2,
    SPar  = 3'd3,
    SBody = 3'd4,
    SPad  = 3'd5
  } state_e;

  localparam logic [2:0] FmtFp16 = 3'd0, FmtInt8 = 3'd1, FmtPal = 3'd2, FmtRaw8 = 3'd3;

  // ---------------- configuration ----------------
  logic [2:0]  kh_q, kw_q;
  logic [15:0] k_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      kh_q <= 3'd1;
      kw_q <= 3'd1;
      k_q  <= 16'd1;
    end else if (cfg_we_i) begin
      kh_q <= cfg_wdata_i.kh;
      kw_q <= cfg_wdata_i.kw;
      k_q  <= 16'({6'd0, cfg_wdata_i.c} * {13'd0, cfg_wdata_i.kh} * {13'd0, cfg_wdata_i.kw});
    end
  end

  // ---------------- bit buffer ----------------
  // A ring of four 64-bit words: beat b goes to word b mod 4, so a beat is written without a
  // shift (the bits written so far are a multiple of 64, and rp_q + cnt_q is that count mod
  // 256). win_q is the ring read from rp_q: its 96 bits (the most the parser reads in a cycle)
  // are the oldest unread bits, oldest in bit 0; bits at and above cnt_q are stale and never
  // used (every use is gated by cnt_q). The next window is one of five rotations of the ring
  // (by the take of each outcome of the cycle, summed from registers only), picked at the end
  // of the cycle, so the parser's decisions never wait for a shifter.
  logic [255:0] ring_q, ring_d;
  logic [95:0]  win_q;
  logic [7:0]   rp_q;   // ring position of win_q's bit 0
  logic [7:0]   cnt_q;  // unread bits (at most 192)
  logic [1:0]   wp_q;   // ring word of the next beat
  logic [5:0]   pos_q;  // bits consumed in the group, modulo 64
  logic         kin_take;

  assign kin_ready_o = cnt_q <= 8'd128;
  assign kin_take    = kin_valid_i && kin_ready_o;
  always_comb begin
    ring_d = ring_q;
    if (kin_take) ring_d[{wp_q, 6'd0} +: 64] = kin_data_i;
  end

  function automatic logic [95:0] ring_read(logic [255:0] r, logic [7:0] at);
    ring_read = 96'({r, r} >> at);
  endfunction

  // ---------------- group header ----------------
  state_e      state_q;
  logic [2:0]  fmt_q;
  logic        sparse_q, two_q, four_q, pcs_q, params_q;
  logic [3:0]  pbits_q;
  logic [2:0]  rm1_q;     // R - 1
  logic [5:0]  nk;        // kernels in the group
  logic [7:0]  hidx_q;    // palette entry / scale / parameter index
  logic [4095:0] pal_q;   // palette, entry i at [16 i +: 16]
  logic [511:0]  scl_q;   // int8sym scales, kernel n at [16 n +: 16]

  function automatic logic [5:0] kernels_of(logic two, logic four, logic [2:0] rm1);
    kernels_of = four ? {1'b0, rm1, 2'b11} + 6'd1 : two ? {2'b0, rm1, 1'b1} + 6'd1 :
                 {3'd0, rm1} + 6'd1;
  endfunction
  function automatic logic [4:0] vbits_of(logic [2:0] fmt, logic [3:0] pbits);
    vbits_of = (fmt == FmtFp16) ? 5'd16 : (fmt == FmtInt8 || fmt == FmtRaw8) ? 5'd8 :
               (fmt == FmtPal) ? {1'b0, pbits} : 5'd4;
  endfunction
  assign nk = kernels_of(two_q, four_q, rm1_q);

  // The body's takes (bits consumed by one cycle's outcome) are constant over a group, so they
  // are registered with the header: at a quad's first operation the quad's masks come first
  // (tq*: the masks only, with one value, with two), at the others only values (tn*). The
  // cycle's decisions then only compare cnt_q with registers and pick one outcome. A
  // four-kernel group is dense and its every operation is the "two values" outcome, whose take
  // is then four values; tv2_q / tv3_q place its third and fourth values.
  logic [7:0] tq0_q, tq1_q, tq2_q, tn1_q, tn2_q, tv2_q, tv3_q;
  logic [4:0] h_vbits;
  logic [6:0] h_mb;      // the quad's mask bits (sparse groups, at most 16 kernels)
  logic [7:0] h_vals;    // bits of the values of a "two values" outcome
  assign h_vbits = vbits_of(win_q[2:0], win_q[10:7]);
  assign h_mb    = win_q[3] ? 7'({kernels_of(win_q[4], 1'b0, win_q[13:11]), 2'b00}) : 7'd0;
  assign h_vals  = win_q[14] ? {1'b0, h_vbits, 2'b00} : {2'd0, h_vbits, 1'b0};

  // ---------------- body: the schedule ----------------
  logic [15:0] qs_q;          // first step of the current quad (4g)
  logic [1:0]  i_q;           // step within the quad
  logic [2:0]  j_q;           // slot
  logic        mload_q;       // the quad's keep masks are loaded (false at a quad start)
  logic [63:0] mask_q;        // keep masks of the quad, kernel n at [4 n +: 4]
  logic [9:0]  c_q;
  logic [2:0]  ky_q, kx_q;

  function automatic logic [15:0] step_inc(logic [15:0] v, logic [2:0] kh, logic [2:0] kw);
    // v = {c[9:0], ky[2:0], kx[2:0]}: the next step in N-2 order.
    step_inc = (v[2:0] + 3'd1 != kw) ? {v[15:3], v[2:0] + 3'd1} :
               (v[5:3] + 3'd1 != kh) ? {v[15:6], v[5:3] + 3'd1, 3'd0} :
                                       {v[15:6] + 10'd1, 6'd0};
  endfunction

  function automatic logic [2:0] first_of(logic [6:0] v);   // the lowest set bit of {v7, v}
    first_of = v[0] ? 3'd0 : v[1] ? 3'd1 : v[2] ? 3'd2 : v[3] ? 3'd3 :
               v[4] ? 3'd4 : v[5] ? 3'd5 : v[6] ? 3'd6 : 3'd7;
  endfunction

  logic [63:0] masks;
  logic [7:0]  kept, kept_q, later_n, k_one, k_rest, m0a, m0b;
  logic [7:0]  kbelow;        // kbelow[j]: a slot below j is kept
  logic        at_qstart, idle_quad;
  logic        lq_q, int_q;   // the current quad is the last one; neither the first nor the last
  logic [2:0]  qlm1_q;        // steps in the current quad - 1
  logic        lq_n;          // the same three for the quad after it (qs_q + 4), from registers
  logic [2:0]  qlm1_n;
  logic [2:0]  j_first, jf_q, j_cur, j_next;   // the first kept slot: at a quad start, held
  logic        has_next;
  logic [3:0]  na, nb;
  logic        st_a, st_b;
  logic [6:0]  off;
  logic [7:0]  t0, t1, t2, th;  // takes: the masks only, with one value, with two; a header's
  logic        ge0, ge1, ge2;   // cnt_q covers t0, t1, t2
  logic [15:0] raw_a, raw_1, raw_b;
  logic [15:0] s_cur;
  logic        en, p_valid_q, issue, body_go;

  always_comb begin
    at_qstart = !mload_q;
    lq_n      = ({1'b0, qs_q} + 17'd8) >= {1'b0, k_q};
    qlm1_n    = lq_n ? 3'(k_q - qs_q - 16'd5) : 3'd3;
    // The quad's masks as read at its first operation (then kept in mask_q). The window's bits
    // past the quad's mask bits are not masks (values follow), but no use below reads them:
    // kept and st_a read slot j's bits only for j <= R - 1, inside them.
    masks = sparse_q ? win_q[63:0] : {64{1'b1}};
    // A quad's first operation (at_qstart, i_q = 0) decides from the window's masks; the
    // others from the registered masks and kept slots. Both are formed in parallel and
    // at_qstart picks one, so the window's path does not wait for the select.
    kept = '0;
    for (int j = 0; j < 8; j++) begin
      logic [3:0] ma, mbk;
      ma  = two_q ? masks[8*j +: 4] : masks[4*j +: 4];
      mbk = two_q ? masks[8*j+4 +: 4] : 4'd0;
      kept[j] = (3'(j) <= rm1_q) && !(sparse_q && int_q && ma == 4'd0 && mbk == 4'd0);
      m0a[j]  = two_q ? masks[8*j] : masks[4*j];
      m0b[j]  = masks[8*j+4];
    end
    // the first kept slot (one-hot) and the kept slots after it, from the prefix ORs of kept
    // (kept & (~kept + 1) and kept & (kept - 1) as carry chains were on the 8-lane core's
    // critical path, the window's masks to the state register)
    kbelow  = {|kept[6:0], |kept[5:0], |kept[4:0], |kept[3:0], |kept[2:0], |kept[1:0], kept[0], 1'b0};
    k_one   = kept & ~kbelow;
    k_rest  = kept & kbelow;
    j_first = first_of(kept[6:0]);
    later_n = kept_q & ~((8'd2 << j_q) - 8'd1);
    na      = two_q ? {j_q, 1'b0} : {1'b0, j_q};
    nb      = {j_q, 1'b1};
    idle_quad = at_qstart && kept == 8'd0;
    j_cur    = at_qstart ? j_first : j_q;
    has_next = at_qstart ? k_rest != 8'd0 : later_n != 8'd0;
    j_next   = at_qstart ? first_of(k_rest[6:0]) : first_of(later_n[6:0]);
    st_a     = at_qstart ? (k_one & m0a) != 8'd0 : mask_q[{na, i_q}];
    st_b     = (two_q || four_q) && (at_qstart ? (k_one & m0b) != 8'd0 : mask_q[{nb, i_q}]);
    // An idle quad (every block dropped) has st_a = st_b = 0 and takes its masks only (t0).
    t0   = at_qstart ? tq0_q : 8'd0;
    off  = t0[6:0];
    t1   = at_qstart ? tq1_q : tn1_q;
    t2   = at_qstart ? tq2_q : tn2_q;
    ge0  = !at_qstart || cnt_q >= tq0_q;
    ge1  = at_qstart ? cnt_q >= tq1_q : cnt_q >= tn1_q;
    ge2  = at_qstart ? cnt_q >= tq2_q : cnt_q >= tn2_q;
    raw_a = 16'(win_q >> off);
    raw_1 = 16'(win_q >> t1);
    raw_b = st_a ? raw_1 : raw_a;
    s_cur = qs_q + {14'd0, i_q};
  end

  // The whole output pipeline (P: fields, O: decoded) advances together.
  logic o_valid_q;
  assign en = !o_valid_q || op_ready_i;
  assign body_go = state_q == SBody && en && (st_a && st_b ? ge2 : st_a || st_b ? ge1 : ge0);
  assign issue = body_go && !idle_quad;

  // The quad's registers (mask_q, kept_q, jf_q, j_q) are read only after its first operation.
  // At a quad start they load the window's masks, kept slots and slots in every cycle, whether
  // or not the operation goes (a start that does not go stays a start and loads again), so the
  // window's masks reach them without the go decision on the way (the 8-lane core's path from
  // the window through kept and body_go to j_q). After the start they move with the operations,
  // by body_go as it is there, from registers only (mid_go).
  logic mid_sta, mid_stb, mid_go, mid_next;
  assign mid_sta  = mask_q[{na, i_q}];
  assign mid_stb  = (two_q || four_q) && mask_q[{nb, i_q}];
  assign mid_go   = state_q == SBody && en &&
                    (mid_sta && mid_stb ? cnt_q >= tn2_q : mid_sta || mid_stb ? cnt_q >= tn1_q : 1'b1);
  assign mid_next = later_n != 8'd0;

  // Header consumption and state.
  logic hdr_go;
  logic pp_valid_q;
  always_comb begin
    hdr_go = 1'b0;
    th     = 8'd0;
    unique case (state_q)
      // A new header waits until the previous group's last operation has left stage P: its
      // decode reads the format, palette and scales that the header overwrites.
      SHdr: begin
        hdr_go = cnt_q >= 8'd32 && !p_valid_q;
        th     = 8'd32;
      end
      SPal, SScl: begin
        hdr_go = cnt_q >= 8'd32;
        th     = 8'd32;
      end
      SPar: begin
        hdr_go = cnt_q >= 8'd64 && (!pp_valid_q || pp_ready_i);
        th     = 8'd64;
      end
      SPad: begin
        hdr_go = cnt_q >= {1'b0, 7'(7'd64 - {1'b0, pos_q})} || pos_q == 6'd0;
        th     = pos_q != 6'd0 ? {1'b0, 7'(7'd64 - {1'b0, pos_q})} : 8'd0;
      end
      default: ;
    endcase
  end

  // The bit buffer's next state: every outcome's take is summed from registers, and the
  // cycle's decisions only pick one of them.
  logic [2:0]  tsel;   // 0: nothing taken, 1: t0, 2: t1, 3: t2, 4: th
  logic [7:0]  cnt_in;
  always_comb begin
    if (state_q == SBody) tsel = !body_go ? 3'd0 : st_a && st_b ? 3'd3 : st_a || st_b ? 3'd2 : 3'd1;
    else                  tsel = hdr_go ? 3'd4 : 3'd0;
    cnt_in = cnt_q + (kin_take ? 8'd64 : 8'd0);
  end

  // The five outcomes as one-hot selects, so the late decisions only gate an AND-OR.
  logic        s0, s1, s2, s3, s4;
  logic [95:0] win_d;
  logic [7:0]  rp_d, cnt_d;
  logic [5:0]  pos_d;
  always_comb begin
    s1 = tsel == 3'd1;
    s2 = tsel == 3'd2;
    s3 = tsel == 3'd3;
    s4 = tsel == 3'd4;
    s0 = !(s1 || s2 || s3 || s4);
    win_d = ({96{s0}} & ring_read(ring_d, rp_q))      | ({96{s1}} & ring_read(ring_d, rp_q + t0)) |
            ({96{s2}} & ring_read(ring_d, rp_q + t1)) | ({96{s3}} & ring_read(ring_d, rp_q + t2)) |
            ({96{s4}} & ring_read(ring_d, rp_q + th));
    rp_d  = ({8{s0}} & rp_q) | ({8{s1}} & (rp_q + t0)) | ({8{s2}} & (rp_q + t1)) |
            ({8{s3}} & (rp_q + t2)) | ({8{s4}} & (rp_q + th));
    cnt_d = ({8{s0}} & cnt_in) | ({8{s1}} & (cnt_in - t0)) | ({8{s2}} & (cnt_in - t1)) |
            ({8{s3}} & (cnt_in - t2)) | ({8{s4}} & (cnt_in - th));
    pos_d = ({6{s0}} & pos_q) | ({6{s1}} & (pos_q + t0[5:0])) | ({6{s2}} & (pos_q + t1[5:0])) |
            ({6{s3}} & (pos_q + t2[5:0])) | ({6{s4}} & (pos_q + th[5:0]));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ring_q <= '0;
      win_q  <= '0;
      rp_q   <= '0;
      cnt_q  <= '0;
      wp_q   <= '0;
      pos_q  <= '0;
    end else begin
      ring_q <= ring_d;
      if (kin_take) wp_q <= wp_q + 2'd1;
      win_q <= win_d;
      rp_q  <= rp_d;
      cnt_q <= cnt_d;
      pos_q <= pos_d;
    end
  end

  logic [15:0] step_vec, step_next, step_next4;
  assign step_vec   = {c_q, ky_q, kx_q};
  assign step_next  = step_inc(step_vec, kh_q, kw_q);
  // step_next4 (an idle quad: 4 steps on) as a mixed-radix add, not 4 chained increments: the
  // column digit kx + 4 carries cx = floor((kx + 4) / KW) <= 4 into the row digit; the row
  // digit's outcome for every carry j (ky + j, its carry cy_j into c) and c + cy_j are formed in
  // parallel, and cx picks one.
  logic [4:0]  x_t, x_m1, x_m2, x_m3, x_m4, y_m1, y_m2, y_m3, y_m4;  // multiples of KW, KH
  logic [2:0]  x_c, x_r;
  logic [14:0] y_out;   // per carry j: the row digit ky' at [3j +: 3]
  logic [49:0] c_out;   // per carry j: c + cy_j at [10j +: 10]
  always_comb begin
    x_m1 = {2'b0, kw_q};
    x_m2 = {1'b0, kw_q, 1'b0};
    x_m3 = {2'b0, kw_q} + {1'b0, kw_q, 1'b0};
    x_m4 = {kw_q, 2'b00};
    y_m1 = {2'b0, kh_q};
    y_m2 = {1'b0, kh_q, 1'b0};
    y_m3 = {2'b0, kh_q} + {1'b0, kh_q, 1'b0};
    y_m4 = {kh_q, 2'b00};
    x_t = {2'b0, kx_q} + 5'd4;   // < KW + 4 <= 5 KW: the carry is at most 4
    x_c = 3'({2'b0, x_t >= x_m1} + {2'b0, x_t >= x_m2} + {2'b0, x_t >= x_m3} + {2'b0, x_t >= x_m4});
    unique case (x_c)
      3'd0:    x_r = x_t[2:0];
      3'd1:    x_r = 3'(x_t - x_m1);
      3'd2:    x_r = 3'(x_t - x_m2);
      3'd3:    x_r = 3'(x_t - x_m3);
      default: x_r = 3'(x_t - x_m4);
    endcase
    for (int j = 0; j < 5; j++) begin
      logic [4:0] u;
      logic [2:0] cy;
      u  = {2'b0, ky_q} + 5'(j);   // < KH + 4 <= 5 KH
      cy = 3'({2'b0, u >= y_m1} + {2'b0, u >= y_m2} + {2'b0, u >= y_m3} + {2'b0, u >= y_m4});
      unique case (cy)
        3'd0:    y_out[3*j +: 3] = u[2:0];
        3'd1:    y_out[3*j +: 3] = 3'(u - y_m1);
        3'd2:    y_out[3*j +: 3] = 3'(u - y_m2);
        3'd3:    y_out[3*j +: 3] = 3'(u - y_m3);
        default: y_out[3*j +: 3] = 3'(u - y_m4);
      endcase
      c_out[10*j +: 10] = c_q + {7'd0, cy};
    end
    step_next4 = {c_out[10*x_c +: 10], y_out[3*x_c +: 3], x_r};
  end

  // Index of the last palette entry, scale or parameter record (palette entries and scales
  // come two per word).
  logic [7:0] hlast;
  logic       words_done;
  always_comb begin
    unique case (state_q)
      SPal:    hlast = 8'((9'd1 << pbits_q) - 9'd1);
      SScl:    hlast = pcs_q ? {2'd0, nk} - 8'd1 : 8'd0;
      default: hlast = {2'd0, nk} - 8'd1;
    endcase
    words_done = {1'b0, hidx_q} + 9'd1 >= {1'b0, hlast};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= SHdr;
      fmt_q    <= '0;
      sparse_q <= 1'b0;
      two_q    <= 1'b0;
      four_q   <= 1'b0;
      pcs_q    <= 1'b0;
      params_q <= 1'b0;
      pbits_q  <= '0;
      rm1_q    <= '0;
      tq0_q    <= '0;
      tq1_q    <= '0;
      tq2_q    <= '0;
      tn1_q    <= '0;
      tn2_q    <= '0;
      tv2_q    <= '0;
      tv3_q    <= '0;
      hidx_q   <= '0;
      qs_q     <= '0;
      lq_q     <= 1'b1;
      int_q    <= 1'b0;
      qlm1_q   <= '0;
      i_q      <= '0;
      j_q      <= '0;
      mload_q  <= 1'b0;
      kept_q   <= '0;
      jf_q     <= '0;
      c_q      <= '0;
      ky_q     <= '0;
      kx_q     <= '0;
      pp_valid_q <= 1'b0;
    end else begin
      if (pp_valid_q && pp_ready_i) pp_valid_q <= 1'b0;
      unique case (state_q)
        SHdr: if (hdr_go) begin
          fmt_q    <= win_q[2:0];
          sparse_q <= win_q[3];
          two_q    <= win_q[4];
          four_q   <= win_q[14];
          pcs_q    <= win_q[5];
          params_q <= win_q[6];
          pbits_q  <= win_q[10:7];
          rm1_q    <= win_q[13:11];
          tq0_q    <= {1'b0, h_mb};
          tq1_q    <= {1'b0, h_mb} + {3'd0, h_vbits};
          tq2_q    <= {1'b0, h_mb} + h_vals;
          tn1_q    <= {3'd0, h_vbits};
          tn2_q    <= h_vals;
          tv2_q    <= {2'd0, h_vbits, 1'b0};
          tv3_q    <= {2'd0, h_vbits, 1'b0} + {3'd0, h_vbits};
          hidx_q   <= '0;
          qs_q     <= '0;
          lq_q     <= k_q <= 16'd4;
          int_q    <= 1'b0;
          qlm1_q   <= k_q <= 16'd4 ? 3'(k_q - 16'd1) : 3'd3;
          i_q      <= '0;
          mload_q  <= 1'b0;
          {c_q, ky_q, kx_q} <= '0;
          if (win_q[2:0] == FmtPal)       state_q <= SPal;
          else if (win_q[2:0] == FmtInt8) state_q <= SScl;
          else if (win_q[6])              state_q <= SPar;
          else                             state_q <= SBody;
        end
        SPal, SScl: if (hdr_go) begin
          hidx_q <= hidx_q + 8'd2;
          if (words_done) begin
            hidx_q  <= '0;
            state_q <= params_q ? SPar : SBody;
          end
        end
        SPar: if (hdr_go) begin
          pp_valid_q <= 1'b1;
          hidx_q <= hidx_q + 8'd1;
          if (hidx_q == hlast) state_q <= SBody;
        end
        SBody: if (body_go) begin
          if (idle_quad) begin
            qs_q <= qs_q + 16'd4;
            lq_q <= lq_n;
            int_q <= !lq_n;
            qlm1_q <= qlm1_n;
            {c_q, ky_q, kx_q} <= step_next4;
          end else begin
            if (has_next) begin
              mload_q <= 1'b1;
            end else if ({1'b0, i_q} != qlm1_q) begin
              i_q     <= i_q + 2'd1;
              mload_q <= 1'b1;
              {c_q, ky_q, kx_q} <= step_next;
            end else begin
              i_q     <= '0;
              mload_q <= 1'b0;
              qs_q    <= qs_q + 16'd4;
              lq_q    <= lq_n;
              int_q   <= !lq_n;
              qlm1_q  <= qlm1_n;
              {c_q, ky_q, kx_q} <= step_next;
              if (lq_q) state_q <= SPad;
            end
          end
        end
        SPad: if (hdr_go) state_q <= SHdr;
        default: state_q <= SHdr;
      endcase
      // the quad's registers (see mid_go): loaded at its start, then moved by its operations
      if (at_qstart) begin
        mask_q <= masks;
        kept_q <= kept;
        jf_q   <= j_first;
        j_q    <= has_next ? j_next : j_first;
      end else if (mid_go) begin
        if (mid_next) j_q <= first_of(later_n[6:0]);
        else if ({1'b0, i_q} != qlm1_q) j_q <= jf_q;
      end
    end
  end

  // Palette, scales and parameter registers.
  always_ff @(posedge clk_i) begin
    if (state_q == SPal && hdr_go) pal_q[{hidx_q, 4'd0} +: 32] <= win_q[31:0];
    if (state_q == SScl && hdr_go) scl_q[{hidx_q[4:0], 4'd0} +: 32] <= win_q[31:0];
    if (state_q == SPar && hdr_go) begin
      pp_kernel_o <= hidx_q[4:0];
      pp_scale_o  <= win_q[15:0];
      pp_bias_o   <= win_q[63:32];
    end
  end
  assign pp_valid_o = pp_valid_q;

  // ---------------- stage P: the operation's fields ----------------
  // Coefficient k of the operation (A, B, C, D) at [16 k +: 16]; C and D only in the dense
  // four-kernel mode, at the third and fourth values of the window.
  logic [63:0] p_raw_q;
  logic [3:0]  p_st_q;
  logic        p_first_q, p_last_q, p_end_q;
  logic [2:0]  p_slot_q;
  // Coefficient k's int8sym scale index, set with the slot: its kernel in the group with a
  // per-channel scale (four-kernel 4 slot + k, two-kernel 2 slot + k % 2, else the slot), 0 with
  // one scale for the group. A register, so the 32-way scale select starts at flops instead of
  // behind the mode flags' fan-out (the 8-lane core's critical path at 215.4 MHz ran from four_q
  // through this select into the dequantizing multiply's exponent sum).
  logic [19:0] p_sn_q;
  logic [9:0]  p_c_q;
  logic [2:0]  p_ky_q, p_kx_q;
  always_ff @(posedge clk_i) begin
    if (en) begin
      p_raw_q   <= {16'(win_q >> tv3_q), 16'(win_q >> tv2_q), raw_b, raw_a};
      p_st_q    <= {four_q, four_q, st_b, st_a};
      p_slot_q  <= j_cur;
      for (int k = 0; k < 4; k++) begin
        p_sn_q[5*k +: 5] <= !pcs_q ? 5'd0 : four_q ? {j_cur, 2'(k)} : two_q ? {1'b0, j_cur, 1'(k % 2)} : {2'd0, j_cur};
      end
      p_c_q     <= c_q;
      p_ky_q    <= ky_q;
      p_kx_q    <= kx_q;
      p_first_q <= s_cur == 16'd0;
      p_last_q  <= s_cur == k_q - 16'd1;
      p_end_q   <= lq_q && !has_next && {1'b0, i_q} == qlm1_q;
    end
  end

  // ---------------- stage P -> O: decode ----------------
  function automatic logic [15:0] sext(logic [7:0] v, logic four);
    sext = four ? {{12{v[3]}}, v[3:0]} : {{8{v[7]}}, v[7:0]};
  endfunction

  // Per coefficient k: the int8sym multiply (ane_fp16_mul, Pipe = 1) and the other formats'
  // values (a dropped coefficient: +0), decoded in D1 from the header's format and palette,
  // waiting beside the multiply; only these stage-P reads see the header.
  logic [7:0]  pmask;
  logic        use_mul;
  logic [63:0] mul, alt, d1_alt_q, d2_alt_q, dec;
  logic [3:0]  d1_mul_q, d2_mul_q;
  assign pmask   = 8'((9'd1 << pbits_q) - 9'd1);
  assign use_mul = (fmt_q == FmtInt8);
  for (genvar k = 0; k < 4; k++) begin : g_dec
    logic [15:0] raw, scale, ival, v;
    assign raw   = p_raw_q[16*k +: 16];
    assign scale = scl_q[{p_sn_q[5*k +: 5], 4'd0} +: 16];
    assign ival  = ane_pkg::int8_to_fp16(raw[7:0]);
    ane_fp16_mul #(.Pipe(1'b1)) u_deq (
      .clk_i(clk_i), .en_i(en), .a_i(scale), .b_i(ival), .y_o(mul[16*k +: 16]));
    always_comb begin
      unique case (fmt_q)
        FmtFp16: v = raw;
        FmtPal:  v = pal_q[{raw[7:0] & pmask, 4'd0} +: 16];
        default: v = (k == 0) ? sext(raw[7:0], fmt_q != FmtRaw8) : 16'h0000;
      endcase
      alt[16*k +: 16] = p_st_q[k] ? v : 16'h0000;
    end
    assign dec[16*k +: 16] = d2_mul_q[k] ? mul[16*k +: 16] : d2_alt_q[16*k +: 16];
  end

  // ---------------- stages D1, D2 ----------------
  logic        d1_valid_q, d2_valid_q;
  logic [2:0]  d1_slot_q, d2_slot_q, d1_ky_q, d2_ky_q, d1_kx_q, d2_kx_q;
  logic [9:0]  d1_c_q, d2_c_q;
  logic        d1_first_q, d2_first_q, d1_last_q, d2_last_q, d1_end_q, d2_end_q;
  always_ff @(posedge clk_i) begin
    if (en) begin
      d1_alt_q   <= alt;
      d1_mul_q   <= {4{use_mul}} & p_st_q;
      d1_slot_q  <= p_slot_q;
      d1_c_q     <= p_c_q;
      d1_ky_q    <= p_ky_q;
      d1_kx_q    <= p_kx_q;
      d1_first_q <= p_first_q;
      d1_last_q  <= p_last_q;
      d1_end_q   <= p_end_q;
      d2_alt_q   <= d1_alt_q;
      d2_mul_q   <= d1_mul_q;
      d2_slot_q  <= d1_slot_q;
      d2_c_q     <= d1_c_q;
      d2_ky_q    <= d1_ky_q;
      d2_kx_q    <= d1_kx_q;
      d2_first_q <= d1_first_q;
      d2_last_q  <= d1_last_q;
      d2_end_q   <= d1_end_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p_valid_q  <= 1'b0;
      d1_valid_q <= 1'b0;
      d2_valid_q <= 1'b0;
      o_valid_q  <= 1'b0;
    end else if (en) begin
      p_valid_q  <= issue;
      d1_valid_q <= p_valid_q;
      d2_valid_q <= d1_valid_q;
      o_valid_q  <= d2_valid_q;
    end
  end

  always_ff @(posedge clk_i) begin
    if (en) begin
      op_coef_a_o <= dec[15:0];
      op_coef_b_o <= dec[31:16];
      op_coef_c_o <= dec[47:32];
      op_coef_d_o <= dec[63:48];
      op_slot_o   <= d2_slot_q;
      op_c_o      <= d2_c_q;
      op_ky_o     <= d2_ky_q;
      op_kx_o     <= d2_kx_q;
      op_first_o  <= d2_first_q;
      op_last_o   <= d2_last_q;
      op_end_o    <= d2_end_q;
    end
  end
  assign op_valid_o = o_valid_q;

  assign busy_o = state_q != SHdr || cnt_q != 8'd0 || p_valid_q || d1_valid_q || d2_valid_q ||
                  o_valid_q || pp_valid_q || kin_valid_i;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else begin
      if (cfg_we_i) assert (!busy_o);
      // after a quad's start, the registers' go and next are the schedule's own
      if (!at_qstart) assert (mid_go == body_go && mid_next == has_next && state_q == SBody);
      // Keep bits past K in the last quad must be 0 (the oracle decoder rejects them too).
      if (state_q == SBody && body_go && at_qstart && sparse_q && lq_q) begin
        for (int n = 0; n < 16; n++) begin
          if (6'(n) < nk) assert ((masks[4*n +: 4] >> ({1'b0, qlm1_q} + 3'd1)) == 4'd0);
        end
      end
    end
  end
`endif

endmodule
