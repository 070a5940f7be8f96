// SPDX-License-Identifier: Apache-2.0
// ane_mac_array: NumLanes MAC lanes in lockstep (ARCHITECTURE: MAC array; NUMERICS N-2).
//
// One operation stream drives every lane: the command, mode, slot, first/last flags are shared,
// the data differ per lane, and the kernel is broadcast:
//   broadcast mode       lane i gets data value i and kernel A;
//   two-kernel mode      (fp16 only) data value i feeds lanes 2i and 2i+1, kernel A goes to the
//                        even lanes and kernel B to the odd lanes: NumLanes/2 data values
//                        against two output channels at once;
//   four-kernel mode     (fp16 only) data value i feeds lanes 4i .. 4i+3, kernels A, B, C, D go
//                        to lanes 4i, 4i+1, 4i+2, 4i+3: NumLanes/4 data values against four
//                        output channels at once.
// CmdLoad loads {aux value i, data value i} into lane i's slot (the two- and four-kernel modes
// do not apply).
// Results and the read port return all lanes at once. One control unit (ane_mac_ctrl) drives
// every lane datapath (ane_mac_dp): the lanes are in lockstep by construction, and the slot
// bookkeeping, hazard check and stage valid bits exist once. Timing is the lane's (initiation
// interval 1 whenever the slots rotate, latency 11; docs/mac_lane.md).
`default_nettype none

module ane_mac_array #(
  // N-0.2 generation: ane_pkg::GenM1 (0) or ane_pkg::GenM5 (1).
  parameter logic        Gen      = ane_pkg::GenM1,
  parameter int unsigned NumLanes = 256,
  // The lanes' read port (rd_*) and fp16 result port (out_fp16_o); ane_mac_dp says what 0 does.
  parameter logic        ReadPort = 1'b1,
  parameter logic        Fp16Port = 1'b1
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  // operation stream
  input  wire logic                  in_valid_i,
  output      logic                  in_ready_o,
  // in_valid_i and not in_ready_o while the pipeline runs: the operation in register 0 waits for
  // its slot (the same-slot rule, docs/mac_lane.md, Timing), not for the result port
  output      logic                  slot_wait_o,
  input  wire ane_pkg::mac_cmd_e     in_cmd_i,
  input  wire ane_pkg::mac_mode_e    in_mode_i,
  input  wire logic [2:0]            in_slot_i,
  input  wire logic                  in_first_i,
  input  wire logic                  in_last_i,
  input  wire logic                  in_two_kernel_i,
  input  wire logic                  in_four_kernel_i,
  input  wire logic [NumLanes*16-1:0] in_data_i,
  input  wire logic [NumLanes*16-1:0] in_aux_i,
  input  wire logic [15:0]           in_kernel_a_i,
  input  wire logic [15:0]           in_kernel_b_i,
  input  wire logic [15:0]           in_kernel_c_i,
  input  wire logic [15:0]           in_kernel_d_i,
  // result stream
  output      logic                  out_valid_o,
  input  wire logic                  out_ready_i,
  output      logic [2:0]            out_slot_o,
  output      logic [NumLanes*32-1:0] out_acc_o,
  output      logic [NumLanes*16-1:0] out_fp16_o,
  output      logic [NumLanes-1:0]   out_sat_o,
  // read port
  input  wire logic                  rd_en_i,
  input  wire logic [2:0]            rd_slot_i,
  output      logic                  rd_valid_o,
  output      logic [NumLanes*32-1:0] rd_acc_o,
  output      logic [NumLanes*16-1:0] rd_fp16_o,
  output      logic [NumLanes-1:0]   rd_sat_o
);

  ane_pkg::mac_ctl_t ctl;
  ane_pkg::mac_oq_t  oq;
  logic              en;

  assign slot_wait_o = in_valid_i && !in_ready_o && en;

  ane_mac_ctrl u_ctrl (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .in_valid_i  (in_valid_i),
    .in_ready_o  (in_ready_o),
    .in_cmd_i    (in_cmd_i),
    .in_mode_i   (in_mode_i),
    .in_slot_i   (in_slot_i),
    .in_first_i  (in_first_i),
    .in_last_i   (in_last_i),
    .out_valid_o (out_valid_o),
    .out_ready_i (out_ready_i),
    .out_slot_o  (out_slot_o),
    .rd_en_i     (rd_en_i),
    .rd_valid_o  (rd_valid_o),
    .en_o        (en),
    .ctl_o       (ctl),
    .oq_o        (oq)
  );

  for (genvar i = 0; i < NumLanes; i++) begin : g_lane
    logic [15:0] data, kernel;
    logic        two_kernel, four_kernel;
    always_comb begin
      two_kernel  = in_two_kernel_i && (in_cmd_i == ane_pkg::CmdMac);
      four_kernel = in_four_kernel_i && (in_cmd_i == ane_pkg::CmdMac);
      data        = four_kernel ? in_data_i[16*(i/4) +: 16] :
                    two_kernel  ? in_data_i[16*(i/2) +: 16] : in_data_i[16*i +: 16];
      if (in_cmd_i == ane_pkg::CmdLoad) begin
        kernel = in_aux_i[16*i +: 16];
      end else if (four_kernel) begin
        kernel = (i % 4 == 0) ? in_kernel_a_i : (i % 4 == 1) ? in_kernel_b_i :
                 (i % 4 == 2) ? in_kernel_c_i : in_kernel_d_i;
      end else if (two_kernel && (i % 2 == 1)) begin
        kernel = in_kernel_b_i;
      end else begin
        kernel = in_kernel_a_i;
      end
    end

    ane_mac_dp #(.Gen(Gen), .ReadPort(ReadPort), .Fp16Port(Fp16Port)) u_dp (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .en_i        (en),
      .ctl_i       (ctl),
      .oq_i        (oq),
      .in_cmd_i    (in_cmd_i),
      .in_mode_i   (in_mode_i),
      .in_data_i   (data),
      .in_kernel_i (kernel),
      .out_acc_o   (out_acc_o[32*i +: 32]),
      .out_fp16_o  (out_fp16_o[16*i +: 16]),
      .out_sat_o   (out_sat_o[i]),
      .rd_slot_i   (rd_slot_i),
      .rd_acc_o    (rd_acc_o[32*i +: 32]),
      .rd_fp16_o   (rd_fp16_o[16*i +: 16]),
      .rd_sat_o    (rd_sat_o[i])
    );
  end

`ifndef SYNTHESIS
  // Elaboration-time parameter check and run-time lockstep / mode checks.
  initial begin
    assert(NumLanes >= 2 && NumLanes % 2 == 0);
  end
  always_comb begin
    if (rst_ni && in_valid_i && (in_two_kernel_i || in_four_kernel_i) &&
        (in_cmd_i == ane_pkg::CmdMac)) begin
      assert(in_mode_i == ane_pkg::ModeFp16);  // the two- and four-kernel modes are fp16 modes
      assert(!(in_two_kernel_i && in_four_kernel_i));
      assert(!in_four_kernel_i || NumLanes % 4 == 0);
    end
  end
`endif

endmodule

`default_nettype wire
