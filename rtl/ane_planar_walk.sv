// SPDX-License-Identifier: Apache-2.0
// ane_planar_walk: the planar engine's address walker (docs/planar.md, "The engine"). Four
// nested loops, outermost first: s (a strip or a channel group), 0, 1 and 2 (the innermost),
// and NP pointers that follow them. Each pointer keeps its value at the start of every level
// and adds the level's stride when the level steps: p_s = base + is SS, p0 = p_s + i0 S0,
// p1 = p0 + i1 S1, p = p1 + i2 S2. Nothing multiplies; ane_planar chooses the counts and the
// strides of each task kind.
//
// start_i loads the walk: the counts (>= 1) and the strides are taken then and kept (as the
// last index of each level), so the inputs may change during the walk and no path runs from
// them to the loop's registers; run_o is high while a position is offered: is_o .. i2_o, the
// last flags and the pointers p_o describe it, and step_i takes it (the next one is offered in
// the following cycle). The innermost level counts n2_i, or n2_last_i in the last strip. The
// walk ends with the step of the last position.
`default_nettype none

module ane_planar_walk #(
  parameter int unsigned NP = 4
) (
  input  wire logic            clk_i,
  input  wire logic            rst_ni,
  input  wire logic            start_i,
  input  wire logic            step_i,
  input  wire logic [13:0]     ns_i,
  input  wire logic [13:0]     n0_i,
  input  wire logic [13:0]     n1_i,
  input  wire logic [13:0]     n2_i,
  input  wire logic [13:0]     n2_last_i,
  input  wire logic [NP*32-1:0] base_i,
  input  wire logic [NP*32-1:0] ss_i,
  input  wire logic [NP*32-1:0] s0_i,
  input  wire logic [NP*32-1:0] s1_i,
  input  wire logic [NP*32-1:0] s2_i,
  output      logic            run_o,
  output      logic [13:0]     is_o,
  output      logic [13:0]     i0_o,
  output      logic [13:0]     i1_o,
  output      logic [13:0]     i2_o,
  output      logic            lasts_o,
  output      logic            last0_o,
  output      logic            last1_o,
  output      logic            last2_o,
  output      logic [NP*32-1:0] p_o
);

  logic        run_q;
  logic [13:0] is_q, i0_q, i1_q, i2_q, l2;
  logic [13:0] ls_q, l0_q, l1_q, l2_q, l2l_q;   // the last index of each level
  logic [NP*32-1:0] ps_q, p0_q, p1_q, p_q, ss_q, s0_q, s1_q, s2_q;
  logic        go;

  assign lasts_o = is_q == ls_q;
  assign l2      = lasts_o ? l2l_q : l2_q;
  assign last2_o = i2_q == l2;
  assign last1_o = i1_q == l1_q;
  assign last0_o = i0_q == l0_q;
  assign go      = run_q && step_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q <= 1'b0;
    end else if (start_i) begin
      run_q <= 1'b1;
    end else if (go && last2_o && last1_o && last0_o && lasts_o) begin
      run_q <= 1'b0;
    end
  end

  always_ff @(posedge clk_i) begin
    if (start_i) begin
      ls_q  <= ns_i - 14'd1;
      l0_q  <= n0_i - 14'd1;
      l1_q  <= n1_i - 14'd1;
      l2_q  <= n2_i - 14'd1;
      l2l_q <= n2_last_i - 14'd1;
      ss_q  <= ss_i;
      s0_q  <= s0_i;
      s1_q  <= s1_i;
      s2_q  <= s2_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (start_i) begin
      is_q <= '0;
      i0_q <= '0;
      i1_q <= '0;
      i2_q <= '0;
      ps_q <= base_i;
      p0_q <= base_i;
      p1_q <= base_i;
      p_q  <= base_i;
    end else if (go) begin
      if (!last2_o) begin
        i2_q <= i2_q + 14'd1;
        for (int k = 0; k < NP; k++) p_q[32*k +: 32] <= p_q[32*k +: 32] + s2_q[32*k +: 32];
      end else if (!last1_o) begin
        i2_q <= '0;
        i1_q <= i1_q + 14'd1;
        for (int k = 0; k < NP; k++) begin
          p1_q[32*k +: 32] <= p1_q[32*k +: 32] + s1_q[32*k +: 32];
          p_q[32*k +: 32]  <= p1_q[32*k +: 32] + s1_q[32*k +: 32];
        end
      end else if (!last0_o) begin
        i2_q <= '0;
        i1_q <= '0;
        i0_q <= i0_q + 14'd1;
        for (int k = 0; k < NP; k++) begin
          p0_q[32*k +: 32] <= p0_q[32*k +: 32] + s0_q[32*k +: 32];
          p1_q[32*k +: 32] <= p0_q[32*k +: 32] + s0_q[32*k +: 32];
          p_q[32*k +: 32]  <= p0_q[32*k +: 32] + s0_q[32*k +: 32];
        end
      end else begin
        i2_q <= '0;
        i1_q <= '0;
        i0_q <= '0;
        is_q <= is_q + 14'd1;
        for (int k = 0; k < NP; k++) begin
          ps_q[32*k +: 32] <= ps_q[32*k +: 32] + ss_q[32*k +: 32];
          p0_q[32*k +: 32] <= ps_q[32*k +: 32] + ss_q[32*k +: 32];
          p1_q[32*k +: 32] <= ps_q[32*k +: 32] + ss_q[32*k +: 32];
          p_q[32*k +: 32]  <= ps_q[32*k +: 32] + ss_q[32*k +: 32];
        end
      end
    end
  end

  assign run_o = run_q;
  assign is_o  = is_q;
  assign i0_o  = i0_q;
  assign i1_o  = i1_q;
  assign i2_o  = i2_q;
  assign p_o   = p_q;

endmodule

`default_nettype wire
