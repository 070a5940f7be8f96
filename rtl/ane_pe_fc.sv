// SPDX-License-Identifier: Apache-2.0
// ane_pe_fc: the planar engine's format converter, one element per lane per cycle (NUMERICS
// N-1, N-4.1, N-4.2, N-4.6; docs/planar.md). The engine has two: the first converts what enters
// the engine, the second what leaves it; both are this module.
//
//   x  = in_int8_i ? int8 (lane bits [7:0]) as fp16, exact : the lane's fp16 code
//   p  = RNE16(x * scale)                 S1, stages 1-3  (the elementwise multiply)
//   s  = RNE16(p + bias)                  S2, stages 4-6  (the elementwise add)
//   u  = unary(s): none, abs, neg, relu   S2, stage 6
//   g  = in_gain_i ? RNE16(16 * u) : u    S3, stages 7-8  (the width-slice gain of N-4.6,
//                                                          overflow to inf)
//   y  = in_out_int8_i ? int8 of g (RNE, clamped to [-128, 127]; bits [15:8] copy bit 7) : g
//                                         S4, stage 9
//
// Scale and bias come from a table of NumChannels (scale, bias) pairs written through the
// configuration port: entry in_ch_i when in_perch_i is set (a per-channel vector broadcast over
// the plane of channel in_ch_i), entry 0 otherwise (a scalar broadcast over everything). A beat
// reads the table in the cycle it is accepted; a write in that cycle takes effect from the next.
// Scale 1.0 and bias +0 make the affine step the identity (exact after N-1).
//
// The fp16 units run with Pipe = 1 (ane_fp16_mul and ane_fp16_add three stages, ane_fp16_ldexp
// two). Latency 9, one vector per cycle, valid/ready; the stages advance together and stall only
// while a result waits at the output.
`default_nettype none

module ane_pe_fc #(
  parameter int unsigned NumLanes    = 16,
  parameter int unsigned NumChannels = 16,
  localparam int unsigned ChW        = (NumChannels > 1) ? $clog2(NumChannels) : 1
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  // configuration: table entry cfg_addr_i <- (cfg_scale_i, cfg_bias_i)
  input  wire logic                   cfg_we_i,
  input  wire logic [ChW-1:0]         cfg_addr_i,
  input  wire logic [15:0]            cfg_scale_i,
  input  wire logic [15:0]            cfg_bias_i,
  // one vector of NumLanes elements and its conversion
  input  wire logic                   in_valid_i,
  output      logic                   in_ready_o,
  input  wire logic [NumLanes*16-1:0] in_data_i,
  input  wire logic                   in_int8_i,
  input  wire logic                   in_perch_i,
  input  wire logic [ChW-1:0]         in_ch_i,
  input  wire ane_pkg::pe_fc_unary_e  in_unary_i,
  input  wire logic                   in_gain_i,
  input  wire logic                   in_out_int8_i,
  output      logic                   out_valid_o,
  input  wire logic                   out_ready_i,
  output      logic [NumLanes*16-1:0] out_y_o
);


  // ---- the parameter table ----
  logic [NumChannels*32-1:0] tab_q;  // entry c: {scale, bias} at [32 c +: 32]
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int c = 0; c < NumChannels; c++) tab_q[32*c +: 32] <= {ane_pkg::Fp16One, ane_pkg::Fp16PosZero};
    end else if (cfg_we_i) begin
      tab_q[32*cfg_addr_i +: 32] <= {cfg_scale_i, cfg_bias_i};
    end
  end
  logic [ChW-1:0] sel;
  logic [31:0]    entry;
  assign sel   = in_perch_i ? in_ch_i : '0;
  assign entry = tab_q[32*sel +: 32];

  // ---- handshake: nine stages moving together ----
  localparam int unsigned Depth = 9;
  logic en;
  logic [Depth-1:0] v_q;
  assign en          = !v_q[Depth-1] || out_ready_i;
  assign in_ready_o  = en;
  assign out_valid_o = v_q[Depth-1];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q <= '0;
    end else if (en) begin
      v_q <= {v_q[Depth-2:0], in_valid_i};
    end
  end

  logic [15:0] bias1_q, bias2_q, bias3_q;
  logic [1:0]  unary1_q, unary2_q, unary3_q, unary4_q, unary5_q;
  logic [6:1]  gain_q, oint_q;  // stage k at bit k
  always_ff @(posedge clk_i) begin
    if (en) begin
      bias1_q  <= entry[15:0];
      bias2_q  <= bias1_q;
      bias3_q  <= bias2_q;
      unary1_q <= in_unary_i;
      unary2_q <= unary1_q;
      unary3_q <= unary2_q;
      unary4_q <= unary3_q;
      unary5_q <= unary4_q;
      gain_q   <= {gain_q[5:1], in_gain_i};
      oint_q   <= {oint_q[5:1], in_out_int8_i};
    end
  end
  logic gain7_q, oint7_q, oint8_q;
  always_ff @(posedge clk_i) begin
    if (en) begin
      gain7_q <= gain_q[6];
      oint7_q <= oint_q[6];
      oint8_q <= oint7_q;
    end
  end

  for (genvar l = 0; l < NumLanes; l++) begin : g_lane
    // S1 (stages 1-3): input format and the scale multiply.
    logic [15:0] d, x, p;
    assign d = in_data_i[16*l +: 16];
    assign x = in_int8_i ? ane_pkg::int8_to_fp16(d[7:0]) : d;
    ane_fp16_mul #(.Pipe(1'b1)) u_mul (
      .clk_i(clk_i), .en_i(en), .a_i(x), .b_i(entry[31:16]), .y_o(p));
    logic [15:0] p3_q;
    always_ff @(posedge clk_i) begin
      if (en) p3_q <= p;
    end

    // S2 (stages 4-6): the bias add and the unary operation. The adder's result is never NaN
    // and never -0.
    logic [15:0] s, un;
    ane_fp16_add #(.Pipe(1'b1)) u_add (
      .clk_i(clk_i), .en_i(en), .a_i(p3_q), .b_i(bias3_q), .sub_i(1'b0), .y_o(s));
    always_comb begin
      unique case (unary5_q)
        ane_pkg::PeFcAbs:  un = {1'b0, s[14:0]};
        ane_pkg::PeFcNeg:  un = {!s[15], s[14:0]};
        ane_pkg::PeFcRelu: un = s[15] ? 16'h0000 : s;
        default:           un = s;  // PeFcNone
      endcase
    end
    logic [15:0] u6_q, u7_q;
    always_ff @(posedge clk_i) begin
      if (en) begin
        u6_q <= un;
        u7_q <= u6_q;
      end
    end

    // S3 (stages 7-8): the width-slice gain.
    logic [15:0] g16, g, g8_q, y;
    logic [7:0]  q;
    ane_fp16_ldexp #(.Pipe(1'b1)) u_gain (
      .clk_i(clk_i), .en_i(en), .h_i(u6_q), .n_i(8'sd4), .y_o(g16));
    assign g = gain7_q ? g16 : u7_q;
    always_ff @(posedge clk_i) begin
      if (en) g8_q <= g;
    end

    // S4 (stage 9): the output format.
    assign q = ane_pkg::fp16_to_int8(g8_q);
    assign y = oint8_q ? {{8{q[7]}}, q} : g8_q;
    always_ff @(posedge clk_i) begin
      if (en) out_y_o[16*l +: 16] <= y;
    end
  end

endmodule
