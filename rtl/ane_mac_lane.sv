// ane_mac_lane: one multiply-accumulate lane with 8 accumulator slots (NUMERICS N-2).
//
// Operation stream (valid/ready), one operation per cycle (initiation interval 1):
//   CmdMac   one product (or compare) into slot in_slot_i; in_first_i clears the slot first,
//            in_last_i ends the reduction (the pending incomplete quad is padded with +0) and
//            produces one result; int4 mode (ModeInt4) writes slots slot .. slot + 3.
//   CmdLoad  loads {in_kernel_i, in_data_i} into the slot (a partial sum to continue, N-2.5).
//   CmdClear clears the slot.
// Result stream (valid/ready): for every CmdMac with last, the slot's new 32-bit register, its
// fp16 output port value (N-2.6) and its saturation flag. Back-pressure on the result stream
// freezes the whole pipeline (in_ready_o = 0) and changes no result.
// Read port: rd_en_i / rd_slot_i give the slot register one cycle later; it never stalls the MACs.
//
// Pipeline (Latency = 4 cycles from an accepted operation to its result and slot update):
//   S0  accepted operation
//   S1  operand decode and exact products (ane_mac_mul)                       N-1, N-2.1..2.3, 2.8
//   S2  quad stage: per-slot pending quad, add12 chain and +0 padding         N-2.4
//   S3  accumulate: fp32 with the port ceiling, int32 saturating, compare     N-2.5, N-2.6, N-2.9
//   out result register; the fp16 output port rounds it                       N-2.6, N-2.3, N-2.7
// The quad and accumulator updates are read-modify-writes inside one stage, so consecutive
// operations on one slot need no forwarding.
`default_nettype none

module ane_mac_lane #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1).
  parameter logic Gen = ane_pkg::GenM1
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  // operation stream
  input  wire logic               in_valid_i,
  output      logic               in_ready_o,
  input  wire ane_pkg::mac_cmd_e  in_cmd_i,
  input  wire ane_pkg::mac_mode_e in_mode_i,
  input  wire logic [2:0]         in_slot_i,
  input  wire logic               in_first_i,
  input  wire logic               in_last_i,
  input  wire logic [15:0]        in_data_i,
  input  wire logic [15:0]        in_kernel_i,
  // result stream
  output      logic               out_valid_o,
  input  wire logic               out_ready_i,
  output      logic [2:0]         out_slot_o,
  output      logic [31:0]        out_acc_o,
  output      logic [15:0]        out_fp16_o,
  output      logic               out_sat_o,
  // read port
  input  wire logic               rd_en_i,
  input  wire logic [2:0]         rd_slot_i,
  output      logic               rd_valid_o,
  output      logic [31:0]        rd_acc_o,
  output      logic [15:0]        rd_fp16_o,
  output      logic               rd_sat_o
);

  localparam int unsigned NumSlots = 8;
  localparam int unsigned EW = ane_pkg::MacExactBits;         // 85
  localparam int unsigned IW = 20;                            // int quad sum: 4 x 2^14 < 2^17

  logic adv;  // the pipeline advances this cycle
  logic out_valid_q;
  assign adv        = !out_valid_q || out_ready_i;
  assign in_ready_o = adv;

  // ------------------------------------------------------------------ S0: accepted operation
  logic               s0_valid_q, s0_first_q, s0_last_q;
  ane_pkg::mac_cmd_e  s0_cmd_q;
  ane_pkg::mac_mode_e s0_mode_q;
  logic [2:0]         s0_slot_q;
  logic [15:0]        s0_data_q, s0_kernel_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s0_valid_q <= 1'b0;
    end else if (adv) begin
      s0_valid_q <= in_valid_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv && in_valid_i) begin
      s0_cmd_q    <= in_cmd_i;
      s0_mode_q   <= in_mode_i;
      s0_slot_q   <= in_slot_i;
      s0_first_q  <= in_first_i;
      s0_last_q   <= in_last_i;
      s0_data_q   <= in_data_i;
      s0_kernel_q <= in_kernel_i;
    end
  end

  // ------------------------------------------------------------------ S1: products
  ane_pkg::mac_exact_t     prod;
  logic signed [15:0]      int_prod;
  logic [31:0]             int4_prod;
  ane_pkg::fp16_unpacked_t data_fp;

  ane_mac_mul #(.Gen(Gen)) u_mul (
    .mode_i      (s0_mode_q),
    .data_i      (s0_data_q),
    .kernel_i    (s0_kernel_q),
    .prod_o      (prod),
    .int_prod_o  (int_prod),
    .int4_prod_o (int4_prod),
    .data_fp_o   (data_fp)
  );

  logic                    s1_valid_q, s1_first_q, s1_last_q;
  ane_pkg::mac_cmd_e       s1_cmd_q;
  ane_pkg::mac_mode_e      s1_mode_q;
  logic [2:0]              s1_slot_q;
  ane_pkg::mac_exact_t     s1_prod_q;
  logic signed [15:0]      s1_int_prod_q;
  logic [31:0]             s1_int4_prod_q;
  ane_pkg::fp16_unpacked_t s1_data_fp_q;
  logic [31:0]             s1_load_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_valid_q <= 1'b0;
    end else if (adv) begin
      s1_valid_q <= s0_valid_q;
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv && s0_valid_q) begin
      s1_cmd_q       <= s0_cmd_q;
      s1_mode_q      <= s0_mode_q;
      s1_slot_q      <= s0_slot_q;
      s1_first_q     <= s0_first_q;
      s1_last_q      <= s0_last_q;
      s1_prod_q      <= prod;
      s1_int_prod_q  <= int_prod;
      s1_int4_prod_q <= int4_prod;
      s1_data_fp_q   <= data_fp;
      s1_load_q      <= {s0_kernel_q, s0_data_q};
    end
  end

  // ------------------------------------------------------------------ S2: quad stage
  // Per-slot quad state, flat vectors indexed by slot.
  logic [NumSlots*EW-1:0] qt_q;    // pending fp quad partial
  logic [NumSlots*IW-1:0] qint_q;  // pending int quad partial
  logic [NumSlots*2-1:0]  qpos_q;  // products already in the pending quad
  logic [NumSlots*2-1:0]  qcnt_q;  // products since clear: 0, 1, 2 = two or more
  logic [NumSlots-1:0]    qcont_q; // slot continues a partial sum (loaded or a reduction ended)
  logic [NumSlots-1:0]    qclr_q;  // the pending quad starts a reduction (acc := +0 first)

  logic s1_mac, s1_fp, s1_int8, s1_int4, s1_cmp;
  always_comb begin
    s1_mac  = s1_valid_q && (s1_cmd_q == ane_pkg::CmdMac);
    s1_int8 = s1_mac && (s1_mode_q == ane_pkg::ModeInt8);
    s1_int4 = s1_mac && (s1_mode_q == ane_pkg::ModeInt4);
    s1_cmp  = s1_mac && ((s1_mode_q == ane_pkg::ModeCmpMax) || (s1_mode_q == ane_pkg::ModeCmpMin));
    s1_fp   = s1_mac && !s1_int8 && !s1_int4 && !s1_cmp;
  end

  // The per-slot quad control (g_quad below): for slot j, with first applied, the position in
  // the quad, the product count (0, 1, 2+), the continuation flag, whether the quad starts a
  // reduction (clears the slot), whether this product completes the quad, the next count.
  logic [NumSlots*2-1:0] bpos_all, ncnt_all;
  logic [NumSlots-1:0]   bcont_all, qclr_all, done_all;

  // The fp quad datapath is shared: it works on the selected slot only, with that slot's control.
  ane_pkg::mac_exact_t sel_t, sum12, t_new, t_pad, zero_exact;
  logic [1:0]          base_pos, cnt_new;
  logic                base_cont, quad_clr, complete;

  always_comb begin
    sel_t      = qt_q[EW*s1_slot_q +: EW];
    base_pos   = bpos_all[2*s1_slot_q +: 2];
    cnt_new    = ncnt_all[2*s1_slot_q +: 2];
    base_cont  = bcont_all[s1_slot_q];
    quad_clr   = qclr_all[s1_slot_q];
    complete   = done_all[s1_slot_q];
    zero_exact = '0;
  end

  ane_mac_add12 #(.Gen(Gen)) u_add12 (.x_i(sel_t), .y_i(s1_prod_q), .s_o(sum12));
  assign t_new = (base_pos == 2'd0) ? s1_prod_q : sum12;
  // An incomplete final quad is padded with +0: add12(t, +0), idempotent after the first.
  ane_mac_add12 #(.Gen(Gen)) u_pad (.x_i(t_new), .y_i(zero_exact), .s_o(t_pad));

  // Next quad state and the quads handed to S3, per slot.
  logic [NumSlots*EW-1:0] qt_d;
  logic [NumSlots*IW-1:0] qint_d;
  logic [NumSlots*2-1:0]  qpos_d, qcnt_d;
  logic [NumSlots-1:0]    qcont_d, qclr_d;
  logic [NumSlots-1:0]    iq_valid, iq_clr;
  logic [NumSlots*IW-1:0] iq_t;
  logic [NumSlots-1:0]    first_hit;  // a CmdMac with first targets this slot: clear it now

  for (genvar j = 0; j < NumSlots; j++) begin : g_quad
    logic              hit_slot, hit_int;
    logic [3:0]        rel;  // j - slot, for int4
    logic signed [IW-1:0] p_int, t_int, base_int;
    logic [1:0]        pos_j, cnt_j, bpos_j, bcnt_j, ncnt_j;
    logic              cont_j, clr_j, bcont_j, qclr_j, done_j;

    // The slot's quad control (its own block: the shared fp path reads it through *_all).
    always_comb begin
      pos_j    = qpos_q[2*j +: 2];
      cnt_j    = qcnt_q[2*j +: 2];
      cont_j   = qcont_q[j];
      clr_j    = qclr_q[j];
      bpos_j   = s1_first_q ? 2'd0 : pos_j;
      bcnt_j   = s1_first_q ? 2'd0 : cnt_j;
      bcont_j  = s1_first_q ? 1'b0 : cont_j;
      qclr_j   = s1_first_q || ((pos_j != 2'd0) && clr_j);
      ncnt_j   = (bcnt_j == 2'd2) ? 2'd2 : bcnt_j + 2'd1;
      done_j   = s1_last_q || (bpos_j == 2'd3);
      bpos_all[2*j +: 2] = bpos_j;
      ncnt_all[2*j +: 2] = ncnt_j;
      bcont_all[j]       = bcont_j;
      qclr_all[j]        = qclr_j;
      done_all[j]        = done_j;
    end

    always_comb begin
      hit_slot = (s1_slot_q == 3'(j));
      rel      = 4'(j) - {1'b0, s1_slot_q};
      hit_int  = (s1_int8 && hit_slot) || (s1_int4 && (rel < 4'd4));
      p_int    = s1_int8 ? IW'(s1_int_prod_q) : IW'($signed(s1_int4_prod_q[8*rel[1:0] +: 8]));

      base_int = $signed(qint_q[IW*j +: IW]);
      t_int    = (bpos_j == 2'd0) ? p_int : base_int + p_int;

      // defaults: hold
      qt_d[EW*j +: EW]   = qt_q[EW*j +: EW];
      qint_d[IW*j +: IW] = qint_q[IW*j +: IW];
      qpos_d[2*j +: 2]   = pos_j;
      qcnt_d[2*j +: 2]   = cnt_j;
      qcont_d[j]         = cont_j;
      qclr_d[j]          = clr_j;
      iq_valid[j]        = 1'b0;
      iq_clr[j]          = qclr_j;
      first_hit[j]       = s1_mac && s1_first_q && (hit_int || hit_slot);
      iq_t[IW*j +: IW]   = t_int;

      if (s1_valid_q && hit_slot && (s1_cmd_q != ane_pkg::CmdMac)) begin
        // Load and clear drop any pending quad; a loaded slot continues a partial sum.
        qpos_d[2*j +: 2] = 2'd0;
        qcnt_d[2*j +: 2] = 2'd0;
        qcont_d[j]       = (s1_cmd_q == ane_pkg::CmdLoad);
        qclr_d[j]        = 1'b0;
      end else if (s1_fp && hit_slot) begin
        qt_d[EW*j +: EW] = t_new;
        qpos_d[2*j +: 2] = done_j ? 2'd0 : bpos_j + 2'd1;
        qcnt_d[2*j +: 2] = ncnt_j;
        qcont_d[j]       = s1_last_q || bcont_j;
        qclr_d[j]        = done_j ? 1'b0 : qclr_j;
      end else if (hit_int) begin
        qint_d[IW*j +: IW] = t_int;
        qpos_d[2*j +: 2]   = done_j ? 2'd0 : bpos_j + 2'd1;
        qcnt_d[2*j +: 2]   = ncnt_j;
        qcont_d[j]         = s1_last_q || bcont_j;
        qclr_d[j]          = done_j ? 1'b0 : qclr_j;
        iq_valid[j]        = done_j;
      end else if (s1_cmp && hit_slot && s1_first_q) begin
        qpos_d[2*j +: 2] = 2'd0;
        qcnt_d[2*j +: 2] = 2'd0;
        qcont_d[j]       = 1'b0;
        qclr_d[j]        = 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      qt_q    <= '0;
      qint_q  <= '0;
      qpos_q  <= '0;
      qcnt_q  <= '0;
      qcont_q <= '0;
      qclr_q  <= '0;
    end else if (adv) begin
      qt_q    <= qt_d;
      qint_q  <= qint_d;
      qpos_q  <= qpos_d;
      qcnt_q  <= qcnt_d;
      qcont_q <= qcont_d;
      qclr_q  <= qclr_d;
    end
  end

  // S2 registers: the operation and the quads it completes.
  logic                    s2_valid_q, s2_first_q, s2_last_q, s2_fq_valid_q, s2_ceiling_q, s2_fq_clr_q;
  ane_pkg::mac_cmd_e       s2_cmd_q;
  ane_pkg::mac_mode_e      s2_mode_q;
  logic [2:0]              s2_slot_q;
  ane_pkg::mac_exact_t     s2_t_q;
  logic [NumSlots-1:0]     s2_iq_valid_q, s2_iq_clr_q, s2_first_hit_q;
  logic [NumSlots*IW-1:0]  s2_iq_t_q;
  ane_pkg::fp16_unpacked_t s2_data_fp_q;
  logic [31:0]             s2_load_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s2_valid_q <= 1'b0;
    end else if (adv) begin
      s2_valid_q <= s1_valid_q;
    end
  end
  always_ff @(posedge clk_i) begin
    if (adv && s1_valid_q) begin
      s2_cmd_q      <= s1_cmd_q;
      s2_mode_q     <= s1_mode_q;
      s2_slot_q     <= s1_slot_q;
      s2_first_q    <= s1_first_q;
      s2_last_q     <= s1_last_q;
      s2_fq_valid_q <= s1_fp && complete;
      s2_t_q        <= (s1_last_q && (base_pos != 2'd3)) ? t_pad : t_new;
      s2_ceiling_q  <= base_cont || (cnt_new == 2'd2);  // N-2.6: K >= 2 or a continuation
      s2_fq_clr_q   <= quad_clr;
      s2_iq_valid_q <= iq_valid;
      s2_first_hit_q <= first_hit;
      s2_iq_clr_q   <= iq_clr;
      s2_iq_t_q     <= iq_t;
      s2_data_fp_q  <= s1_data_fp_q;
      s2_load_q     <= s1_load_q;
    end
  end

  // ------------------------------------------------------------------ S3: accumulate
  logic [NumSlots*32-1:0] acc_q, acc_d;
  logic [NumSlots-1:0]    sat_q, sat_d, hv_q, hv_d;  // saturation flag, compare: holds a value

  logic [31:0] sel_acc, acc_in, fp_acc_new;
  always_comb begin
    sel_acc = acc_q[32*s2_slot_q +: 32];
    acc_in  = s2_fq_clr_q ? 32'd0 : sel_acc;
  end
  ane_mac_acc_add u_acc_add (.acc_i(acc_in), .t_i(s2_t_q), .ceiling_i(s2_ceiling_q), .acc_o(fp_acc_new));

  // Compare mode (N-2.9): the data operand as fp32 (exact), the slot value canonical
  // (a NaN acts as +inf, -0 as +0), then an ordered comparison.
  logic [3:0]  lz;
  logic [9:0]  sig_n;  // fraction below the leading one of the normalized significand
  logic [31:0] d32, cmp_acc, key_d, key_a;
  logic        s2_cmp, s2_hv, take_d;
  always_comb begin
    lz = 4'd0;
    for (int i = 0; i < 11; i++) begin
      if (s2_data_fp_q.sig[i]) lz = 4'(10 - i);
    end
    sig_n = 10'(s2_data_fp_q.sig << lz);
    if (s2_data_fp_q.is_inf) begin
      d32 = {s2_data_fp_q.sign, 8'hFF, 23'd0};
    end else if (s2_data_fp_q.is_zero) begin
      d32 = 32'd0;
    end else begin
      // value = sig * 2^(exp - 25); msb at bit 10 - lz.
      d32 = {s2_data_fp_q.sign, 8'(8'd112 + {3'd0, s2_data_fp_q.exp} - {4'd0, lz}),
             sig_n, 13'd0};
    end
    cmp_acc = (sel_acc[30:23] == 8'hFF && sel_acc[22:0] != 23'd0) ? 32'h7F80_0000 :
              (sel_acc == 32'h8000_0000)                          ? 32'd0 : sel_acc;
    key_d   = d32[31] ? ~d32 : (d32 ^ 32'h8000_0000);
    key_a   = cmp_acc[31] ? ~cmp_acc : (cmp_acc ^ 32'h8000_0000);
    s2_cmp  = s2_valid_q && (s2_cmd_q == ane_pkg::CmdMac) &&
              ((s2_mode_q == ane_pkg::ModeCmpMax) || (s2_mode_q == ane_pkg::ModeCmpMin));
    s2_hv   = !s2_first_q && hv_q[s2_slot_q];
    take_d  = !s2_hv || ((s2_mode_q == ane_pkg::ModeCmpMax) ? (key_d > key_a) : (key_d < key_a));
  end

  for (genvar j = 0; j < NumSlots; j++) begin : g_acc
    logic              hit;
    logic [31:0]       a_j, ai_j;
    logic signed [32:0] isum;
    logic              ovf_pos, ovf_neg;
    always_comb begin
      hit     = s2_valid_q && (s2_slot_q == 3'(j));
      a_j     = acc_q[32*j +: 32];
      ai_j    = s2_iq_clr_q[j] ? 32'd0 : a_j;
      isum    = $signed({ai_j[31], ai_j}) + 33'($signed(s2_iq_t_q[IW*j +: IW]));
      ovf_pos = !isum[32] && isum[31];
      ovf_neg = isum[32] && !isum[31];

      acc_d[32*j +: 32] = a_j;
      sat_d[j]          = sat_q[j];
      hv_d[j]           = hv_q[j];
      if (hit && (s2_cmd_q == ane_pkg::CmdLoad)) begin
        acc_d[32*j +: 32] = s2_load_q;
        sat_d[j]          = 1'b0;
        hv_d[j]           = 1'b1;
      end else if (hit && (s2_cmd_q == ane_pkg::CmdClear)) begin
        acc_d[32*j +: 32] = 32'd0;
        sat_d[j]          = 1'b0;
        hv_d[j]           = 1'b0;
      end else if (hit && s2_fq_valid_q) begin
        acc_d[32*j +: 32] = fp_acc_new;
        sat_d[j]          = s2_fq_clr_q ? 1'b0 : sat_q[j];
        hv_d[j]           = 1'b1;
      end else if (hit && s2_cmp) begin
        acc_d[32*j +: 32] = take_d ? d32 : cmp_acc;
        sat_d[j]          = s2_first_q ? 1'b0 : sat_q[j];
        hv_d[j]           = 1'b1;
      end else if (s2_valid_q && s2_iq_valid_q[j]) begin
        acc_d[32*j +: 32] = ovf_pos ? 32'h7FFF_FFFF : (ovf_neg ? 32'h8000_0000 : isum[31:0]);
        sat_d[j]          = (s2_iq_clr_q[j] ? 1'b0 : sat_q[j]) || ovf_pos || ovf_neg;
        hv_d[j]           = 1'b1;
      end else if (s2_valid_q && s2_first_hit_q[j]) begin
        // The first product of a reduction whose quad is still pending: the slot reads +0.
        acc_d[32*j +: 32] = 32'd0;
        sat_d[j]          = 1'b0;
        hv_d[j]           = 1'b0;
      end
    end
  end

  logic [2:0] out_slot_q;
  logic [31:0] out_acc_q;
  logic out_sat_q;
  logic result_valid;  // a CmdMac with last leaves S3 this cycle
  assign result_valid = s2_valid_q && (s2_cmd_q == ane_pkg::CmdMac) && s2_last_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      acc_q       <= '0;
      sat_q       <= '0;
      hv_q        <= '0;
      out_valid_q <= 1'b0;
      out_slot_q  <= 3'd0;
      out_acc_q   <= 32'd0;
      out_sat_q   <= 1'b0;
    end else if (adv) begin
      acc_q       <= acc_d;
      sat_q       <= sat_d;
      hv_q        <= hv_d;
      out_valid_q <= result_valid;
      if (result_valid) begin  // the result registers hold the last result, never X
        out_slot_q <= s2_slot_q;
        out_acc_q  <= acc_d[32*s2_slot_q +: 32];
        out_sat_q  <= sat_d[s2_slot_q];
      end
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_slot_o  = out_slot_q;
  assign out_acc_o   = out_acc_q;
  assign out_sat_o   = out_sat_q;
  ane_mac_out #(.Gen(Gen)) u_out (.acc_i(out_acc_q), .fp16_o(out_fp16_o));

  // ------------------------------------------------------------------ read port
  logic        rd_valid_q, rd_sat_q;
  logic [31:0] rd_acc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_valid_q <= 1'b0;
      rd_acc_q   <= 32'd0;
      rd_sat_q   <= 1'b0;
    end else begin
      rd_valid_q <= rd_en_i;
      rd_acc_q   <= acc_q[32*rd_slot_i +: 32];
      rd_sat_q   <= sat_q[rd_slot_i];
    end
  end
  assign rd_valid_o = rd_valid_q;
  assign rd_acc_o   = rd_acc_q;
  assign rd_sat_o   = rd_sat_q;
  ane_mac_out #(.Gen(Gen)) u_rd_out (.acc_i(rd_acc_q), .fp16_o(rd_fp16_o));

  // ------------------------------------------------------------------ protocol checks
`ifndef SYNTHESIS
  // Immediate assertions, active in every simulation (Verilator --assert).
  always_comb begin
    if (rst_ni && in_valid_i && (in_cmd_i == ane_pkg::CmdMac) && (in_mode_i == ane_pkg::ModeInt4)) begin
      assert(in_slot_i <= 3'd4);  // int4 writes slots slot .. slot + 3
    end
    if (rst_ni && in_valid_i) begin
      assert(in_cmd_i != 2'd3);   // no such command
    end
  end
`endif

endmodule

`default_nettype wire
