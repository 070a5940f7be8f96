// ane_mac_acc_exact: the accumulator step of one MAC slot for an exact quad sum, m5 (NUMERICS
// N-2.4 m5 [assumption]: quads are exact; N-2.5, N-2.6). Used by the m5 lane only: m1 uses the
// narrow ane_mac_acc_add.
// Combinational: acc_o = RNE_fp32(acc_i + t_i), then, when ceiling_i is set and
// |RNE_fp16(acc_o)| >= 32768 (i.e. |acc_o| >= 32760), acc_o becomes inf with its sign.
// inf + finite = inf, inf + (-inf) = +0, zero results are +0. An fp32 NaN in acc_i (a loaded
// value) acts as +inf (N-1.1).
//
// The sum is formed in a 93-bit window whose top is the larger operand's exponent E: bits
// E+1 .. E-90 hold operand bits exactly and bit 0 collects any bits shifted out below (a
// sticky "jam" bit). A quad sum has at most 83 significant bits and an fp32 value 24, so an
// operand loses bits only when it is at least 8 binades below the other; then the result keeps
// its top within one binade of E and the jam bit lies far below the fp32 rounding position.
`default_nettype none

module ane_mac_acc_exact (
  input  wire logic [31:0]         acc_i,
  input  wire ane_pkg::mac_exact_t t_i,
  input  wire logic                ceiling_i,
  output      logic [31:0]         acc_o
);

  localparam int unsigned Win = 93;

  // (Written without functions, so that the lanes of an array share one body of simulation
  // code: Verilator numbers the temporaries of every inlined function call apart.)
  logic [6:0] a_mi, t_mi, s_mi;  // index of the highest set bit (0 for zero)
  // placing a significand (lsb exponent lsb) into the window whose bit 1 has exponent base + 1
  logic signed [11:0] pa_s, pt_s;
  logic [Win-2:0]     pa_wide, pt_wide;
  logic [82:0]        pa_kept, pt_kept;

  // acc decode
  logic               a_nan, a_inf, a_sign, a_zero;
  logic [23:0]        a_sig;
  logic signed [11:0] a_lsb, a_msb;
  // t decode
  logic               t_zero;
  logic signed [11:0] t_lsb, t_msb;
  // window sum
  logic signed [11:0] e_top, base;
  logic [Win-1:0]     wa, wt, wsum;
  logic               sum_sign;
  logic signed [11:0] e_r, q, pos;
  logic [Win-1:0]     low_mask, low_bits, half, rounded;
  logic               round_up;
  logic [24:0]        sig;
  logic signed [11:0] exp_field;
  logic [31:0]        result;

  always_comb begin
    a_nan  = (acc_i[30:23] == 8'hFF) && (acc_i[22:0] != 23'd0);
    a_inf  = (acc_i[30:23] == 8'hFF);
    a_sign = acc_i[31] && !a_nan;
    a_sig  = {(acc_i[30:23] != 8'h00), acc_i[22:0]};
    a_zero = !a_inf && (a_sig == 24'd0);
    a_lsb  = ((acc_i[30:23] == 8'h00) ? 12'sd1 : $signed({4'd0, acc_i[30:23]})) - 12'sd150;
    a_mi   = 7'd0;
    for (int k = 0; k < 24; k++) begin
      if (a_sig[k]) a_mi = 7'(k);
    end
    a_msb  = a_lsb + $signed({5'd0, a_mi});

    t_zero = !t_i.inf && (t_i.mag == 83'd0);
    t_lsb  = 12'(ane_pkg::ExactLsbExp);
    t_mi   = 7'd0;
    for (int k = 0; k < 83; k++) begin
      if (t_i.mag[k]) t_mi = 7'(k);
    end
    t_msb  = t_lsb + $signed({5'd0, t_mi});

    e_top  = a_zero ? t_msb : (t_zero ? a_msb : ((a_msb > t_msb) ? a_msb : t_msb));
    base   = e_top - 12'sd91;  // exponent of window bit 0 (the jam bit)
    pa_s    = a_lsb - base - 12'sd1;
    pa_wide = (Win-1)'(a_sig) << pa_s[6:0];
    pa_kept = 83'(a_sig) >> 7'(-pa_s);
    if (a_zero) begin
      wa = '0;
    end else if (pa_s >= 0) begin
      wa = {pa_wide, 1'b0};
    end else if (-pa_s >= 12'sd83) begin
      wa = {{(Win-1){1'b0}}, 1'b1};
    end else begin
      wa = {Win'(pa_kept) << 1} |
           {{(Win-1){1'b0}}, ((83'(a_sig) & ~({83{1'b1}} << 7'(-pa_s))) != 83'd0)};
    end
    pt_s    = t_lsb - base - 12'sd1;
    pt_wide = (Win-1)'(t_i.mag) << pt_s[6:0];
    pt_kept = t_i.mag >> 7'(-pt_s);
    if (t_zero) begin
      wt = '0;
    end else if (pt_s >= 0) begin
      wt = {pt_wide, 1'b0};
    end else if (-pt_s >= 12'sd83) begin
      wt = {{(Win-1){1'b0}}, 1'b1};
    end else begin
      wt = {Win'(pt_kept) << 1} |
           {{(Win-1){1'b0}}, ((t_i.mag & ~({83{1'b1}} << 7'(-pt_s))) != 83'd0)};
    end

    if (a_sign == t_i.sign) begin
      wsum     = wa + wt;
      sum_sign = a_sign;
    end else if (wa >= wt) begin
      wsum     = wa - wt;
      sum_sign = a_sign;
    end else begin
      wsum     = wt - wa;
      sum_sign = t_i.sign;
    end

    // RNE to fp32: quantum 2^q with q = max(e_r, -126) - 23.
    s_mi     = 7'd0;
    for (int k = 0; k < Win; k++) begin
      if (wsum[k]) s_mi = 7'(k);
    end
    e_r      = base + $signed({5'd0, s_mi});
    q        = ((e_r > -12'sd126) ? e_r : -12'sd126) - 12'sd23;
    pos      = q - base;  // window bit of one quantum
    low_mask = (pos > 0) ? ~({Win{1'b1}} << pos[6:0]) : '0;
    low_bits = wsum & low_mask;
    half     = (pos > 0) ? (Win'(1) << (pos[6:0] - 7'd1)) : '0;
    round_up = (pos > 0) && ((low_bits > half) || ((low_bits == half) && wsum[pos[6:0]]));
    rounded  = (wsum & ~low_mask) + (round_up ? (Win'(1) << pos[6:0]) : '0);
    sig      = 25'((pos > 0) ? (rounded >> pos[6:0]) : (rounded << 7'(-pos)));
    exp_field = q + 12'sd150;
    if (sig[24]) begin  // rounding carried into a new binade
      sig       = sig >> 1;
      exp_field = exp_field + 12'sd1;
    end

    if (exp_field >= 12'sd255) begin
      result = {sum_sign, 8'hFF, 23'd0};
    end else if (!sig[23]) begin
      result = {sum_sign, 8'h00, sig[22:0]};  // denormal (exp_field is 1 here)
    end else begin
      result = {sum_sign, exp_field[7:0], sig[22:0]};
    end
    if (wsum == '0) result = 32'd0;

    // Infinities and zeros.
    if (a_inf && t_i.inf) begin
      acc_o = (a_sign != t_i.sign) ? 32'd0 : {a_sign, 8'hFF, 23'd0};
    end else if (a_inf) begin
      acc_o = {a_sign, 8'hFF, 23'd0};
    end else if (t_i.inf) begin
      acc_o = {t_i.sign, 8'hFF, 23'd0};
    end else if (a_zero && t_zero) begin
      acc_o = 32'd0;
    end else begin
      acc_o = result;
    end

    // N-2.6 accumulator-port ceiling: RNE_fp16(acc) >= 32768 exactly when |acc| >= 32760.
    if (ceiling_i && (acc_o[30:0] >= 31'h46FF_F000)) acc_o = {acc_o[31], 8'hFF, 23'd0};
  end

endmodule

`default_nettype wire
